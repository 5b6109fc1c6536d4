// vec_amortized (Rust sibling)
//
// Workload: n = 200,000. Timed region: make an empty Vec<i64> (Vec::new, no capacity hint),
// push S+i for i in 0..n, then sum every element by index (bounds-checked indexing). The Vec is
// dropped after t1 (GC'd languages free later too).
// Fairness: S = HALEBENCH_SEED (run time) so the sum cannot fold. std::hint::black_box on the
// filled Vec keeps the pushes real (no closed-form shortcut); the sum loop may vectorise.
use std::hint::black_box;
use std::time::Instant;

const N: i64 = 200_000;

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
    let seed = read_seed();

    let t0 = Instant::now();
    let mut v: Vec<i64> = Vec::new();
    for i in 0..N {
        v.push(seed + i);
    }
    let v = black_box(v);
    let mut sum: i64 = 0;
    for i in 0..v.len() {
        sum += v[i];
    }
    let elapsed = t0.elapsed().as_nanos();

    let len = v.len();
    drop(v);
    if len != N as usize {
        eprintln!("vector length {}, want {}", len, N);
        std::process::exit(1);
    }
    println!("elapsed_ns={}", elapsed);
    println!("check=n:{},sum:{}", N, sum);
}
