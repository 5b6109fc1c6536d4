// bus_dispatch (JavaScript / Node sibling)
// Shape: one subscriber registered on subject "bench.tick" before t0; timed: 100,000
// publishes of a Tick {n: S + i} object (S = HALEBENCH_SEED). Each publish looks the subject
// up by its string key in a Map, then calls the subscriber (a closure) through the value
// found; the subscriber counts messages.
// Fairness: Map.get runs on every publish. V8 may inline the monomorphic handler call and
// elide the Tick allocation (flatters JS); string keys carry a cached hash (a language trait).
"use strict";

const ITERS = 100000;

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
  publish(subject, msg) {
    const handler = this.subjects.get(subject);
    if (handler !== undefined) handler(msg);
  }
}

function main() {
  const s = seedFromEnv();

  const bus = new Bus();
  let count = 0;
  bus.subscribe("bench.tick", (msg) => {
    count++;
  });

  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ITERS; i++) {
    bus.publish("bench.tick", { n: s + i });
  }
  const t1 = process.hrtime.bigint();

  console.log(`elapsed_ns=${t1 - t0}`);
  console.log(`check=iters:${ITERS},count:${count}`);
}

main();
