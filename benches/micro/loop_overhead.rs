// loop_overhead (Rust sibling)
// Shape: acc starts at the run-time seed S (HALEBENCH_SEED); 100,000,000 iterations of
// acc ^= i for i = 0..N-1. Only the loop is timed (std::time::Instant).
// Fairness: acc comes from S so nothing folds to a constant; black_box pins the finished acc
// before the second clock read. rustc -O -C target-cpu=native vectorises this reduction, so it
// measures vector-XOR throughput rather than scalar loop overhead (as in every LLVM sibling).
use std::hint::black_box;
use std::time::Instant;

const ITERS: i64 = 100_000_000;

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

fn main() {
    let mut acc: i64 = seed_from_env();

    let t0 = Instant::now();
    for i in 0..ITERS {
        acc ^= i;
    }
    let acc = black_box(acc);
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=iters:{},acc:{}", ITERS, acc);
}
