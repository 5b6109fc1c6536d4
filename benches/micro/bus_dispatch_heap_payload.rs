// bus_dispatch_heap_payload (Rust sibling)
// Shape: one subscriber registered on subject "bench.beat.heap" before t0, and the label
// String "tick" built at run time before t0; timed: 50,000 publishes of Beat{n: S + i,
// label} (S = HALEBENCH_SEED). Each publish looks the subject up by its string key, makes the
// subscriber's own copy of the payload (Beat with a cloned String: one heap allocation +
// copy) and calls the subscriber through a boxed closure, which takes ownership, counts and
// drops it (one free).
// Fairness: the bus is a std HashMap<String, Box<dyn FnMut(Beat)>> (default SipHash-1-3,
// std only) looked up on every publish; the subject passes through std::hint::black_box each
// publish. The publisher keeps one Beat whose n is rewritten per publish (its label is not
// reallocated), matching the other siblings where the published message borrows the label.
use std::cell::Cell;
use std::collections::HashMap;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Instant;

const ITERS: i64 = 50_000;

fn seed_from_env() -> i64 {
    match std::env::var("HALEBENCH_SEED") {
        Ok(s) if !s.is_empty() => match s.parse::<i64>() {
            Ok(v) if (0..2_147_483_648).contains(&v) => v,
            _ => {
                eprintln!("invalid HALEBENCH_SEED: {}", s);
                std::process::exit(2);
            }
        },
        _ => 0,
    }
}

#[allow(dead_code)] // the subscriber only counts; n (and label) are carried
#[derive(Clone)]
struct Beat {
    n: i64,
    label: String,
}

type Handler = Box<dyn FnMut(Beat)>;

struct Bus {
    subjects: HashMap<String, Handler>,
}

impl Bus {
    fn new() -> Self {
        Bus { subjects: HashMap::new() }
    }

    fn subscribe(&mut self, subject: &str, handler: Handler) {
        self.subjects.insert(subject.to_string(), handler);
    }

    // Delivers a deep copy: the subscriber owns its Beat (and its label bytes).
    fn publish(&mut self, subject: &str, msg: &Beat) {
        if let Some(handler) = self.subjects.get_mut(subject) {
            handler(msg.clone());
        }
    }
}

fn main() {
    let s = seed_from_env();

    let mut bus = Bus::new();
    let count = Rc::new(Cell::new(0i64));
    {
        let count = Rc::clone(&count);
        bus.subscribe(
            "bench.beat.heap",
            Box::new(move |msg: Beat| {
                count.set(count.get() + 1);
                drop(msg);
            }),
        );
    }
    let label: String = black_box(String::from("tick"));
    let mut msg = Beat { n: 0, label };

    let t0 = Instant::now();
    for i in 0..ITERS {
        msg.n = s + i;
        bus.publish(black_box("bench.beat.heap"), &msg);
    }
    let total = black_box(count.get());
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=iters:{},count:{}", ITERS, total);
}
