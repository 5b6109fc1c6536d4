// form_hashmap_false_sharing (Rust sibling)
//
// Workload: one shared std HashMap<i64, i64> behind one std::sync::Mutex (Arc<Mutex<..>>); two
// writer threads insert concurrently, writer A ids 2i and writer B ids 2i+1, value i, for
// i in 0..100,000 (one lock/unlock per insert). The map starts empty (HashMap::new) and grows
// under the lock. Both threads are spawned and have passed a ready Barrier before t0; a second
// Barrier releases them right after t0. Timed: until both writers are joined. total = the map's
// length (200,000).
// Fairness: the keys are fixed by the workload (2i, 2i+1); the result is the map's real length.
// std's default SipHash is slower than the C sibling's multiplicative hash: that is std's
// default, kept.
use std::collections::HashMap;
use std::sync::{Arc, Barrier, Mutex};
use std::thread;
use std::time::Instant;

const PER_WRITER: i64 = 100_000;

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

fn main() {
    // Validated for uniformity; this workload's keys are fixed (2i, 2i+1).
    let _ = read_seed();
    let shared: Arc<Mutex<HashMap<i64, i64>>> = Arc::new(Mutex::new(HashMap::new()));
    let ready = Arc::new(Barrier::new(3));
    let start = Arc::new(Barrier::new(3));

    let mut writers = Vec::with_capacity(2);
    for parity in 0..2i64 {
        let shared = Arc::clone(&shared);
        let ready = Arc::clone(&ready);
        let start = Arc::clone(&start);
        writers.push(thread::spawn(move || {
            ready.wait();
            start.wait();
            for i in 0..PER_WRITER {
                shared.lock().unwrap().insert(2 * i + parity, i);
            }
        }));
    }
    ready.wait();

    let t0 = Instant::now();
    start.wait();
    for w in writers {
        w.join().expect("writer panicked");
    }
    let elapsed = t0.elapsed().as_nanos();

    let total = shared.lock().unwrap().len();
    println!("elapsed_ns={}", elapsed);
    println!("check=per_writer:{},total:{}", PER_WRITER, total);
}
