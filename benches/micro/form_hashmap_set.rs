// form_hashmap_set (Rust sibling)
// Shape: an empty HashMap<i64, Entry> (HashMap::new, no capacity) made before t0; timed:
// 1,000,000 inserts with key id = S + i and value Entry{id: S + i, v: i + 1}
// (S = HALEBENCH_SEED).
// Fairness: std HashMap with its default SipHash-1-3 hasher (std only; a DoS-resistant hash
// that is slower than the C sibling's multiply-xor mix). The map passes through
// std::hint::black_box after the loop.
use std::collections::HashMap;
use std::hint::black_box;
use std::time::Instant;

const N: i64 = 1_000_000;

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

#[allow(dead_code)]
struct Entry {
    id: i64,
    v: i64,
}

fn main() {
    let s = seed_from_env();
    let mut m: HashMap<i64, Entry> = HashMap::new();

    let t0 = Instant::now();
    for i in 0..N {
        let id = s + i;
        m.insert(id, Entry { id, v: i + 1 });
    }
    let m = black_box(m);
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=n:{},len:{}", N, m.len());
}
