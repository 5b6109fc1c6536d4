// coord_with_churn (Rust sibling)
//
// Workload: a parent Coord (Box) creates and dissolves K = 2,000 children one after another:
// each child is a Box<Worker{id: S+i}>, handed to the parent (accept), read by an
// #[inline(never)] hook that adds its id to the parent's sink, then released (dropped) before
// the next child is made. Timed: the whole parent lifetime, from its Box::new to its drop.
// Fairness: S = HALEBENCH_SEED (run time) so the sink cannot fold; the hook black_boxes the
// child reference so the allocation cannot be elided. The allocator recycling the same block is
// this language's natural churn path, not removed.
use std::hint::black_box;
use std::time::Instant;

const K: i64 = 2000;

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
    id: i64,
}

struct Coord {
    sink: i64,
    live: Option<Box<Worker>>,
}

#[inline(never)]
fn on_accept(sink: &mut i64, w: &Worker) {
    let w = black_box(w);
    *sink += w.id;
}

impl Coord {
    fn accept(&mut self, w: Box<Worker>) {
        on_accept(&mut self.sink, &w);
        self.live = Some(w);
    }

    fn release(&mut self) {
        self.live = None;
    }
}

fn main() {
    let seed = read_seed();

    let t0 = Instant::now();
    let mut coord = Box::new(Coord {
        sink: 0,
        live: None,
    });
    for i in 0..K {
        let w = Box::new(Worker { id: seed + i });
        coord.accept(w);
        coord.release();
    }
    let sink = coord.sink;
    drop(coord);
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!("check=k:{},sink:{}", K, sink);
}
