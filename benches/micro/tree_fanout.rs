// tree_fanout (Rust sibling)
//
// Workload: a coordinator (Box) with K = 20 worker children (Box, created by the parent and held
// in its Vec). For each child the parent's accept calls the child's #[inline(never)] compute(),
// which sums (j + S) for j in 0..M, M = 2,000, and adds the result to the parent's total.
// Timed: building the tree, the 20 compute/accept steps, and dropping the tree.
// NOT COMPARABLE as a ratio: LLVM may turn compute()'s loop into a closed form, so Rust does
// O(1) work per child where interpreted / JIT siblings loop 2,000 times. compute() stays a real
// call and S = HALEBENCH_SEED is a run-time value, so the total itself cannot fold.
use std::hint::black_box;
use std::time::Instant;

const K: usize = 20;
const M: i64 = 2000;

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

struct Worker {
    base: i64,
    m: i64,
}

impl Worker {
    #[inline(never)]
    fn compute(&self) -> i64 {
        let mut acc = 0i64;
        for j in 0..self.m {
            acc += j + self.base;
        }
        acc
    }
}

struct Coord {
    total: i64,
    children: Vec<Box<Worker>>,
}

impl Coord {
    fn accept(&mut self, k: usize) {
        let w = black_box(&self.children[k]);
        self.total += w.compute();
    }
}

fn main() {
    let seed = read_seed();

    let t0 = Instant::now();
    let mut coord = Box::new(Coord {
        total: 0,
        children: Vec::with_capacity(K),
    });
    for _ in 0..K {
        coord.children.push(Box::new(Worker { base: seed, m: M }));
    }
    for k in 0..K {
        coord.accept(k);
    }
    let total = coord.total;
    drop(coord);
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=k:{},m:{},total:{}", K, M, total);
}
