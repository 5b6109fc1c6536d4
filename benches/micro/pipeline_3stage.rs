// pipeline_3stage (Rust sibling)
//
// Workload: one thread, three stages linked by two subjects, each a FIFO queue (VecDeque) with
// one subscriber: Source publishes N = 50,000 Event{value: S+i} on the "event" queue; Filter,
// the "event" subscriber, keeps even values and publishes Filtered{value} on the "filtered"
// queue; Sink, the "filtered" subscriber, counts and sums. Delivery is a scheduler loop that,
// while either queue is non-empty, hands one message from each non-empty queue to its
// subscriber (a &mut dyn Subscriber trait object). Source publishes all N before the scheduler
// runs. Timed: from the first publish until both queues are drained.
// Fairness: S = HALEBENCH_SEED (run time) so counts and sums cannot fold. Messages are copied
// into and out of the queues by value, as in the other siblings. LLVM may devirtualise the
// subscriber calls (the C sibling's function pointers likewise): a compiled-language advantage,
// not removed.
use std::collections::VecDeque;
use std::time::Instant;

const N: i64 = 50_000;

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
struct Event {
    value: i64,
}

#[derive(Clone, Copy)]
struct Filtered {
    value: i64,
}

trait Subscriber<T> {
    fn deliver(&mut self, msg: T, out: &mut VecDeque<Filtered>);
}

struct Filter {
    passed: i64,
}

impl Subscriber<Event> for Filter {
    fn deliver(&mut self, e: Event, out: &mut VecDeque<Filtered>) {
        if e.value % 2 == 0 {
            self.passed += 1;
            out.push_back(Filtered { value: e.value });
        }
    }
}

struct Sink {
    count: i64,
    sum: i64,
}

impl Subscriber<Filtered> for Sink {
    fn deliver(&mut self, f: Filtered, _out: &mut VecDeque<Filtered>) {
        self.count += 1;
        self.sum += f.value;
    }
}

fn run_until_drained(
    events: &mut VecDeque<Event>,
    filtered: &mut VecDeque<Filtered>,
    filter: &mut dyn Subscriber<Event>,
    sink: &mut dyn Subscriber<Filtered>,
) {
    loop {
        let mut delivered = false;
        if let Some(e) = events.pop_front() {
            filter.deliver(e, filtered);
            delivered = true;
        }
        if let Some(f) = filtered.pop_front() {
            // The sink publishes nothing; it gets the same outbox so both stages share one shape.
            sink.deliver(f, filtered);
            delivered = true;
        }
        if !delivered {
            break;
        }
    }
}

fn main() {
    let seed = read_seed();
    let mut filter = Filter { passed: 0 };
    let mut sink = Sink { count: 0, sum: 0 };

    let t0 = Instant::now();
    let mut events: VecDeque<Event> = VecDeque::new();
    let mut filtered: VecDeque<Filtered> = VecDeque::new();
    for i in 0..N {
        events.push_back(Event { value: seed + i });
    }
    run_until_drained(&mut events, &mut filtered, &mut filter, &mut sink);
    let elapsed = t0.elapsed().as_nanos();

    println!("elapsed_ns={}", elapsed);
    println!(
        "check=n:{},filter_passed:{},sink_count:{},sink_sum:{}",
        N, filter.passed, sink.count, sink.sum
    );
}
