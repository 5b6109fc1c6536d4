// stream_aggregator (Rust sibling)
//
// Workload: an Aggregator subscribed to "bench.sample" before t0 (a HashMap<String, Box<dyn
// FnMut(&Sample)>> router, std's default SipHash). Timed: 200,000 publishes of
// Sample{value: (31*(S+i)+7) mod 1000}; each publish hashes and looks up the subject string,
// then calls the boxed closure, which keeps count, sum, min and max (Cell fields behind an Rc,
// so the aggregator stays readable after the run).
// Fairness: S = HALEBENCH_SEED (run time) so the values cannot fold; the subject &str goes
// through black_box each publish. Delivery is a direct synchronous call (no queue), the same
// shape every sibling uses. SipHash is slower than the C sibling's FNV-1a: that is std's default.
use std::cell::Cell;
use std::collections::HashMap;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Instant;

const ITERS: i64 = 200_000;

fn read_seed() -> i64 {
    match std::env::var("HALEBENCH_SEED") {
        Ok(s) if !s.is_empty() => match s.parse::<i64>() {
            Ok(v) if (0..(1i64 << 31)).contains(&v) => v,
            _ => {
                eprintln!("HALEBENCH_SEED must be an integer in [0, 2^31): {}", s);
                std::process::exit(2);
            }
        },
        _ => 0,
    }
}

struct Sample {
    value: i64,
}

struct Aggregator {
    count: Cell<i64>,
    sum: Cell<i64>,
    min: Cell<i64>,
    max: Cell<i64>,
}

impl Aggregator {
    fn on_sample(&self, s: &Sample) {
        self.count.set(self.count.get() + 1);
        self.sum.set(self.sum.get() + s.value);
        if s.value < self.min.get() {
            self.min.set(s.value);
        }
        if s.value > self.max.get() {
            self.max.set(s.value);
        }
    }
}

struct Bus {
    routes: HashMap<String, Box<dyn FnMut(&Sample)>>,
}

impl Bus {
    fn subscribe(&mut self, subject: &str, f: Box<dyn FnMut(&Sample)>) {
        self.routes.insert(subject.to_string(), f);
    }

    fn publish(&mut self, subject: &str, s: &Sample) {
        if let Some(f) = self.routes.get_mut(subject) {
            f(s);
        }
    }
}

fn main() {
    let seed = read_seed();
    let agg = Rc::new(Aggregator {
        count: Cell::new(0),
        sum: Cell::new(0),
        min: Cell::new(i64::MAX),
        max: Cell::new(i64::MIN),
    });
    let mut bus = Bus {
        routes: HashMap::new(),
    };
    let sub = Rc::clone(&agg);
    bus.subscribe("bench.sample", Box::new(move |s: &Sample| sub.on_sample(s)));

    let t0 = Instant::now();
    for i in 0..ITERS {
        let s = Sample {
            value: (31 * (seed + i) + 7) % 1000,
        };
        bus.publish(black_box("bench.sample"), &s);
    }
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!(
        "check=iters:{},count:{},sum:{},min:{},max:{}",
        ITERS,
        agg.count.get(),
        agg.sum.get(),
        agg.min.get(),
        agg.max.get()
    );
}
