// fn_call (Rust sibling)
// Shape: 10,000,000 calls of step(x) = x*2 + 1 with x = i + S (S = HALEBENCH_SEED), acc = the
// result of each call; only the call loop is timed (std::time::Instant).
// Fairness: step is #[inline(never)] and each result passes through std::hint::black_box, so
// every iteration is a real call that LLVM cannot drop as a pure call with an unused result
// (black_box costs one stack store/load per iteration). Arguments come from S.
use std::hint::black_box;
use std::time::Instant;

const ITERS: i64 = 10_000_000;

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

#[inline(never)]
fn step(x: i64) -> i64 {
    x * 2 + 1
}

fn main() {
    let s = seed_from_env();
    let mut acc: i64 = 0;

    let t0 = Instant::now();
    for i in 0..ITERS {
        acc = black_box(step(i + s));
    }
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=iters:{},acc:{}", ITERS, acc);
}
