// bus_dispatch_heap_payload (JavaScript / Node sibling)
// Shape: one subscriber registered on subject "bench.beat.heap" before t0, and the label
// "tick" built at run time before t0; timed: 50,000 publishes of a Beat {n: S + i, label}
// object (S = HALEBENCH_SEED). Each publish looks the subject up by its string key in a Map,
// makes the subscriber's own copy of the payload (a new Beat object) and calls the
// subscriber through the value found; the subscriber counts.
// Fairness: JS strings are immutable and shared by reference, so the copy duplicates the
// object but not the label bytes (C/Rust/Go allocate and copy the label): this flatters JS.
// V8 may also inline the handler and elide allocations it can prove dead.
"use strict";

const ITERS = 50000;

function seedFromEnv() {
  const s = process.env.HALEBENCH_SEED;
  if (s === undefined || s === "") return 0;
  if (!/^[0-9]+$/.test(s) || Number(s) >= 2147483648) {
    process.stderr.write(`invalid HALEBENCH_SEED: ${s}\n`);
    process.exit(2);
  }
  return Number(s);
}

class Bus {
  constructor() {
    this.subjects = new Map();
  }
  subscribe(subject, handler) {
    this.subjects.set(subject, handler);
  }
  // Delivers a copy: the subscriber gets its own Beat object.
  publish(subject, msg) {
    const handler = this.subjects.get(subject);
    if (handler !== undefined) handler({ n: msg.n, label: msg.label });
  }
}

function main() {
  const s = seedFromEnv();

  const bus = new Bus();
  let count = 0;
  bus.subscribe("bench.beat.heap", (msg) => {
    count++;
  });
  const label = ["ti", "ck"].join("");

  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ITERS; i++) {
    bus.publish("bench.beat.heap", { n: s + i, label: label });
  }
  const t1 = process.hrtime.bigint();

  console.log(`elapsed_ns=${t1 - t0}`);
  console.log(`check=iters:${ITERS},count:${count}`);
}

main();
