// form_chunk_hint_multi_locus (Rust sibling)
//
// COVERAGE BENCH, NOT A RATIO SIGNAL: it checks that the multi-subscriber cross-thread shape
// runs and drains; its elapsed time is not meant to be compared across languages.
//
// Workload: one other OS thread (the "io pool") hosts 16 Worker loci, each subscribed to the
// subject "tick" with its own handler state. The main thread publishes 1,000 Tick{n: S+i} on
// "tick": each publish looks the subject up by string (HashMap<&str, usize>) and sends
// {topic, tick} through std::sync::mpsc::sync_channel(64) to the io thread, which calls all 16
// handlers (fn pointers) for it: 16,000 handler calls. The io thread is spawned, its workers
// subscribed, and it has passed a ready Barrier before t0. Timed: from the first publish until
// the main thread has joined the io thread after all 16,000 handler calls (no sleep; the C
// sibling drains the same way).
// Fairness: S = HALEBENCH_SEED (run time); every handler sums n and each worker's sum is checked
// after the run (exit 1 on a mismatch), so no call can be dropped. The subject goes through
// black_box before each lookup.
use std::collections::HashMap;
use std::hint::black_box;
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::Instant;

const N_TICKS: i64 = 1000;
const WORKERS: usize = 16;
const CAP: usize = 64;
const SUBJECTS: [&str; 4] = ["tick", "tock", "status", "shutdown"];

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

#[derive(Clone, Copy)]
struct Tick {
    n: i64,
}

struct Msg {
    topic: usize,
    tick: Tick,
}

struct Worker {
    handled: i64,
    sum: i64,
}

type Handler = fn(&mut Worker, &Tick);

struct Sub {
    handler: Handler,
    worker: Worker,
}

fn worker_on_tick(w: &mut Worker, t: &Tick) {
    w.handled += 1;
    w.sum += t.n;
}

fn subject_table() -> HashMap<&'static str, usize> {
    SUBJECTS.iter().enumerate().map(|(i, s)| (*s, i)).collect()
}

fn main() {
    let seed = read_seed();
    let (tx, rx) = sync_channel::<Msg>(CAP);
    let ready = Arc::new(Barrier::new(2));
    let io_ready = Arc::clone(&ready);

    let io = thread::spawn(move || {
        let names = subject_table();
        let mut topics: Vec<Vec<Sub>> = (0..SUBJECTS.len()).map(|_| Vec::new()).collect();
        for _ in 0..WORKERS {
            topics[names["tick"]].push(Sub {
                handler: worker_on_tick,
                worker: Worker { handled: 0, sum: 0 },
            });
        }
        io_ready.wait();
        for _ in 0..N_TICKS {
            let m = rx.recv().expect("publisher hung up early");
            for sub in topics[m.topic].iter_mut() {
                (sub.handler)(&mut sub.worker, &m.tick);
            }
        }
        topics.swap_remove(names["tick"])
    });

    let names = subject_table();
    ready.wait();

    let t0 = Instant::now();
    for i in 0..N_TICKS {
        if let Some(&topic) = names.get(black_box("tick")) {
            tx.send(Msg {
                topic,
                tick: Tick { n: seed + i },
            })
            .expect("io thread hung up early");
        }
    }
    let subs = io.join().expect("io thread panicked");
    let elapsed = t0.elapsed().as_nanos();

    let want_sum = N_TICKS * seed + N_TICKS * (N_TICKS - 1) / 2;
    let mut handled: i64 = 0;
    for (k, sub) in subs.iter().enumerate() {
        handled += sub.worker.handled;
        if sub.worker.sum != want_sum {
            eprintln!("worker {} summed {}, want {}", k, sub.worker.sum, want_sum);
            std::process::exit(1);
        }
    }
    println!("elapsed_ns={}", elapsed);
    println!(
        "check=n_ticks:{},workers:{},handled:{}",
        N_TICKS,
        subs.len(),
        handled
    );
}
