// pipeline_3stage (JavaScript sibling)
//
// Workload: one thread, three stages linked by two subjects, each a FIFO queue with one
// subscriber: Source publishes N = 50,000 Event{value: S+i} on the "event" queue; Filter, the
// "event" subscriber, keeps even values and publishes Filtered{value} on the "filtered" queue;
// Sink, the "filtered" subscriber, counts and sums. Delivery is a scheduler loop that, while
// either queue is non-empty, hands one message from each non-empty queue to its subscriber
// through a function stored on the subject. Source publishes all N before the scheduler runs.
// Timed: from the first publish until both queues are drained.
// Fairness: S = HALEBENCH_SEED (run time) so counts and sums cannot fold (all below 2^53, exact).
// Queues are growable power-of-two rings like the C/Go siblings'; each message is a small
// object allocated at publish, as a typed message is in the other GC'd siblings.
'use strict';

const N = 50000;

function readSeed() {
  const s = process.env.HALEBENCH_SEED;
  if (s === undefined || s === '') return 0;
  if (!/^[0-9]+$/.test(s) || Number(s) >= 2 ** 31) {
    process.stderr.write(`HALEBENCH_SEED must be an integer in [0, 2^31): ${s}\n`);
    process.exit(2);
  }
  return Number(s);
}

class Fifo {
  constructor() {
    this.buf = new Array(16);
    this.head = 0;
    this.len = 0;
  }

  push(x) {
    const cap = this.buf.length;
    if (this.len === cap) {
      const nb = new Array(cap * 2);
      for (let i = 0; i < this.len; i++) nb[i] = this.buf[(this.head + i) & (cap - 1)];
      this.buf = nb;
      this.head = 0;
    }
    this.buf[(this.head + this.len) & (this.buf.length - 1)] = x;
    this.len++;
  }

  pop() {
    const x = this.buf[this.head];
    this.buf[this.head] = undefined;
    this.head = (this.head + 1) & (this.buf.length - 1);
    this.len--;
    return x;
  }
}

class Event {
  constructor(value) {
    this.value = value;
  }
}

class Filtered {
  constructor(value) {
    this.value = value;
  }
}

class Pipeline {
  constructor() {
    this.filterPassed = 0;
    this.sinkCount = 0;
    this.sinkSum = 0;
    this.events = {
      q: new Fifo(),
      deliver: (e) => {
        if (e.value % 2 === 0) {
          this.filterPassed++;
          this.filtered.q.push(new Filtered(e.value));
        }
      },
    };
    this.filtered = {
      q: new Fifo(),
      deliver: (f) => {
        this.sinkCount++;
        this.sinkSum += f.value;
      },
    };
  }

  runUntilDrained() {
    for (;;) {
      let delivered = false;
      if (this.events.q.len > 0) {
        this.events.deliver(this.events.q.pop());
        delivered = true;
      }
      if (this.filtered.q.len > 0) {
        this.filtered.deliver(this.filtered.q.pop());
        delivered = true;
      }
      if (!delivered) return;
    }
  }
}

function main() {
  const seed = readSeed();
  const p = new Pipeline();

  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) p.events.q.push(new Event(seed + i));
  p.runUntilDrained();
  const t1 = process.hrtime.bigint();

  process.stdout.write(`elapsed_ns=${t1 - t0}\n`);
  process.stdout.write(
    `check=n:${N},filter_passed:${p.filterPassed},sink_count:${p.sinkCount},sink_sum:${p.sinkSum}\n`,
  );
}

main();
