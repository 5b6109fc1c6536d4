// form_vec_get (Rust sibling)
// Shape: a Vec<i64> filled with v[i] = S + i for i < 200,000 (S = HALEBENCH_SEED) outside the
// timer; timed: acc ^= v[i] for every index 0..v.len(), with ordinary bounds-checked
// indexing.
// Fairness: for this loop shape LLVM proves the bounds check redundant and removes it, then
// vectorises the XOR fold (the C and Go siblings get the same elimination). The vector passes
// through std::hint::black_box before the timed loop so its contents are opaque.
use std::hint::black_box;
use std::time::Instant;

const N: i64 = 200_000;

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
    for i in 0..N {
        v.push(s + i);
    }
    let v = black_box(v);

    let mut acc: i64 = 0;
    let t0 = Instant::now();
    for i in 0..v.len() {
        acc ^= v[i];
    }
    let acc = black_box(acc);
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=iters:{},acc:{}", v.len(), acc);
}
