// locus_instantiation (Rust sibling)
// Shape: 100,000 times: Box a one-field object {v = S + i} (S = HALEBENCH_SEED), read v
// through an #[inline(never)] method, sink ^= v, drop the Box. Only the loop is timed.
// Fairness: the Box passes through std::hint::black_box so LLVM cannot elide the heap
// allocation or the free; the accessor is a real call. Values come from S.
use std::hint::black_box;
use std::time::Instant;

const ITERS: i64 = 100_000;

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

struct Obj {
    v: i64,
}

impl Obj {
    #[inline(never)]
    fn get(&self) -> i64 {
        self.v
    }
}

fn main() {
    let s = seed_from_env();
    let mut sink: i64 = 0;

    let t0 = Instant::now();
    for i in 0..ITERS {
        let o = black_box(Box::new(Obj { v: s + i }));
        sink ^= o.get();
    }
    let sink = black_box(sink);
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=iters:{},sink:{}", ITERS, sink);
}
