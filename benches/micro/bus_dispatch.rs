// bus_dispatch (Rust sibling)
// Shape: one subscriber registered on subject "bench.tick" before t0; timed: 100,000
// publishes of Tick{n: S + i} (S = HALEBENCH_SEED). Each publish looks the subject up by its
// string key in the bus, then calls the subscriber through a boxed closure; the subscriber
// counts messages.
// Fairness: the bus is a std HashMap<String, Box<dyn FnMut(&Tick)>> (default SipHash-1-3
// hasher, std only), looked up on every publish; the subject &str passes through
// std::hint::black_box each publish so the lookup cannot be hoisted. The call is a dynamic
// (vtable) call. The counter lives in an Rc<Cell<i64>> shared with the closure.
use std::cell::Cell;
use std::collections::HashMap;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Instant;

const ITERS: i64 = 100_000;

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
struct Tick {
    n: i64,
}

type Handler = Box<dyn FnMut(&Tick)>;

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

    fn publish(&mut self, subject: &str, msg: &Tick) {
        if let Some(handler) = self.subjects.get_mut(subject) {
            handler(msg);
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
            "bench.tick",
            Box::new(move |_msg: &Tick| {
                count.set(count.get() + 1);
            }),
        );
    }

    let t0 = Instant::now();
    for i in 0..ITERS {
        let msg = Tick { n: s + i };
        bus.publish(black_box("bench.tick"), &msg);
    }
    let total = black_box(count.get());
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=iters:{},count:{}", ITERS, total);
}
