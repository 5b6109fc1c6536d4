// fn_scratch_work (Rust sibling)
//
// Workload: 100 calls (c = 0..99) of an #[inline(never)] f(c, S) that builds a local Vec<i64> of
// 1,000 ints (j + S for j in 0..1000, pushed into Vec::new(), no capacity hint), sums it by
// index, drops it and returns the sum; the caller adds it to total. All 100 calls are timed.
// Fairness: S = HALEBENCH_SEED (run time). The argument goes through black_box at every call so
// the calls cannot be merged or hoisted; black_box on the filled Vec keeps the allocation and
// the stores real (no allocation elision, no closed-form sum). The sum loop may vectorise.
use std::hint::black_box;
use std::time::Instant;

const CALLS: i64 = 100;
const ITEMS: i64 = 1000;

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

#[inline(never)]
fn scratch_work(_c: i64, seed: i64) -> i64 {
    let mut v: Vec<i64> = Vec::new();
    for j in 0..ITEMS {
        v.push(j + seed);
    }
    let v = black_box(v);
    let mut sum = 0i64;
    for j in 0..v.len() {
        sum += v[j];
    }
    sum
}

fn main() {
    let seed = read_seed();

    let t0 = Instant::now();
    let mut total: i64 = 0;
    for c in 0..CALLS {
        total += scratch_work(c, black_box(seed));
    }
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=calls:{},total:{}", CALLS, total);
}
