// form_vec_push (Rust sibling)
// Shape: an empty Vec<i64> (Vec::new, no capacity) made before t0; timed: 500,000 pushes of
// S + i (S = HALEBENCH_SEED).
// Fairness: std Vec growth policy (amortised doubling); the vector passes through
// std::hint::black_box after the loop so the pushes cannot be dropped. Values come from S.
use std::hint::black_box;
use std::time::Instant;

const ITERS: i64 = 500_000;

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
    let s = seed_from_env();
    let mut v: Vec<i64> = Vec::new();

    let t0 = Instant::now();
    for i in 0..ITERS {
        v.push(s + i);
    }
    let v = black_box(v);
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=iters:{},len:{}", ITERS, v.len());
}
