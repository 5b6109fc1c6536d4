// fn_modular (Rust sibling)
// Shape: 10,000,000 calls of outer(x) = inner(x) * 3 with inner(x) = x + 1, x = i + S
// (S = HALEBENCH_SEED), acc = the result of each call; only the call loop is timed.
// Fairness: outer and inner are both #[inline(never)]; outer's result passes through
// std::hint::black_box each iteration so LLVM cannot drop the call chain as a pure call with
// an unused result: two real calls per iteration. Arguments come from S.
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
fn inner(x: i64) -> i64 {
    x + 1
}

#[inline(never)]
fn outer(x: i64) -> i64 {
    inner(x) * 3
}

fn main() {
    let s = seed_from_env();
    let mut acc: i64 = 0;

    let t0 = Instant::now();
    for i in 0..ITERS {
        acc = black_box(outer(i + s));
    }
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=iters:{},acc:{}", ITERS, acc);
}
