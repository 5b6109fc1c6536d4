// bus_dispatch_cross_pool (Rust sibling)
//
// Workload: 100,000 Tick{n: S+i} sent from the main thread to a consumer thread through
// std::sync::mpsc::sync_channel(64) (bounded, capacity 64). The consumer counts and sums n.
// The consumer thread is spawned and has passed a start Barrier before t0. Timed: from the
// first send until the main thread has joined the consumer after it received all 100,000 (the
// drain is timed, not only the send loop).
// Fairness: S = HALEBENCH_SEED (run time). Ticks move by value; send blocks when the channel is
// full and recv when it is empty, like the C sibling's condvar ring and Go's buffered channel.
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::Instant;

const ITERS: i64 = 100_000;
const CAP: usize = 64;

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

struct Tick {
    n: i64,
}

fn main() {
    let seed = read_seed();
    let (tx, rx) = sync_channel::<Tick>(CAP);
    let ready = Arc::new(Barrier::new(2));
    let consumer_ready = Arc::clone(&ready);
    let consumer = thread::spawn(move || {
        consumer_ready.wait();
        let mut count: i64 = 0;
        let mut sum: i64 = 0;
        for _ in 0..ITERS {
            let t = rx.recv().expect("producer hung up early");
            count += 1;
            sum += t.n;
        }
        (count, sum)
    });
    ready.wait();

    let t0 = Instant::now();
    for i in 0..ITERS {
        tx.send(Tick { n: seed + i })
            .expect("consumer hung up early");
    }
    let (count, sum) = consumer.join().expect("consumer panicked");
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=iters:{},count:{},sum:{}", ITERS, count, sum);
}
