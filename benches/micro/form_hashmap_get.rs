// form_hashmap_get (Rust sibling)
// Shape: a HashMap<i64, Entry> filled outside the timer with 150,000 entries, key id = S + i,
// value Entry{id: S + i, v: i + 1} (S = HALEBENCH_SEED), as in form_hashmap_set; timed:
// 150,000 lookups of key S + i, summing v of each hit.
// Fairness: std HashMap with its default SipHash-1-3 hasher (std only; slower per lookup than
// the C sibling's multiply-xor mix). The map passes through std::hint::black_box before the
// timed loop so its contents are opaque.
use std::collections::HashMap;
use std::hint::black_box;
use std::time::Instant;

const N: i64 = 150_000;

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
    for i in 0..N {
        let id = s + i;
        m.insert(id, Entry { id, v: i + 1 });
    }
    let m = black_box(m);

    let mut acc: i64 = 0;
    let t0 = Instant::now();
    for i in 0..N {
        if let Some(e) = m.get(&(s + i)) {
            acc += e.v;
        }
    }
    let acc = black_box(acc);
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=n:{},acc:{}", N, acc);
}
