// stream_aggregator (JavaScript sibling)
//
// Workload: an Aggregator subscribed to "bench.sample" before t0 (a Map from subject string to
// handler function). Timed: 200,000 publishes of Sample{value: (31*(S+i)+7) mod 1000}; each
// publish looks the subject up in the Map, then calls the handler, which keeps count, sum, min
// and max.
// Fairness: S = HALEBENCH_SEED (run time) so the values cannot fold. 31*(S+i)+7 exceeds 2^31,
// so plain Number arithmetic is used (exact: everything stays below 2^53). Each Sample is a
// small object allocated per publish (V8 may scalar-replace it once optimised). V8 caches a
// string's hash, so the Map lookup does not rehash the subject each time (the runtime's own
// behaviour, kept). Delivery is a direct synchronous call (no queue), as in every sibling.
'use strict';

const ITERS = 200000;

function readSeed() {
  const s = process.env.HALEBENCH_SEED;
  if (s === undefined || s === '') return 0;
  if (!/^[0-9]+$/.test(s) || Number(s) >= 2 ** 31) {
    process.stderr.write(`HALEBENCH_SEED must be an integer in [0, 2^31): ${s}\n`);
    process.exit(2);
  }
  return Number(s);
}

class Sample {
  constructor(value) {
    this.value = value;
  }
}

class Aggregator {
  constructor() {
    this.count = 0;
    this.sum = 0;
    this.min = Number.MAX_SAFE_INTEGER;
    this.max = Number.MIN_SAFE_INTEGER;
  }

  onSample(s) {
    this.count++;
    this.sum += s.value;
    if (s.value < this.min) this.min = s.value;
    if (s.value > this.max) this.max = s.value;
  }
}

class Bus {
  constructor() {
    this.routes = new Map();
  }

  subscribe(subject, fn) {
    this.routes.set(subject, fn);
  }

  publish(subject, s) {
    const fn = this.routes.get(subject);
    if (fn !== undefined) fn(s);
  }
}

function main() {
  const seed = readSeed();
  const agg = new Aggregator();
  const bus = new Bus();
  bus.subscribe('bench.sample', (s) => agg.onSample(s));

  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ITERS; i++) {
    bus.publish('bench.sample', new Sample((31 * (seed + i) + 7) % 1000));
  }
  const t1 = process.hrtime.bigint();

  process.stdout.write(`elapsed_ns=${t1 - t0}\n`);
  process.stdout.write(
    `check=iters:${ITERS},count:${agg.count},sum:${agg.sum},min:${agg.min},max:${agg.max}\n`,
  );
}

main();
