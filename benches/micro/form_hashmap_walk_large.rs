// form_hashmap_walk_large (Rust sibling)
//
// Workload: a std HashMap<i64, Entry{id, val}> filled outside the timer with 100,000 entries
// Entry{id: S+i, val: 3i} keyed by id. Timed: one full iteration (map.values()) summing
// val + (id - id).
// Fairness: ids come from S = HALEBENCH_SEED (run time). The map is black_boxed before t0 so the
// fill cannot be folded into the walk. LLVM folds (id - id) to zero, so only val is loaded from
// each entry; the walk itself (hashbrown's SIMD group scan over control bytes) is std's own.
use std::collections::HashMap;
use std::hint::black_box;
use std::time::Instant;

const N: i64 = 100_000;

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

struct Entry {
    id: i64,
    val: i64,
}

fn main() {
    let seed = read_seed();
    let mut map: HashMap<i64, Entry> = HashMap::new();
    for i in 0..N {
        map.insert(
            seed + i,
            Entry {
                id: seed + i,
                val: 3 * i,
            },
        );
    }
    let map = black_box(map);

    let t0 = Instant::now();
    let mut sum: i64 = 0;
    for e in map.values() {
        sum += e.val + (e.id - e.id);
    }
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=n:{},len:{},sum:{}", N, map.len(), sum);
}
