// loop_overhead (JavaScript / Node sibling)
// Shape: acc starts at the run-time seed S (HALEBENCH_SEED); 100,000,000 iterations of
// acc ^= i for i = 0..N-1. Only the loop is timed (process.hrtime.bigint, monotonic).
// Fairness: acc comes from S so nothing folds to a constant. Arithmetic stays in 32-bit
// integers with |0 (S < 2^31 and i < 2^27, so the result equals the 64-bit one); V8 does not
// vectorise it.
"use strict";

const ITERS = 100000000;

function seedFromEnv() {
  const s = process.env.HALEBENCH_SEED;
  if (s === undefined || s === "") return 0;
  if (!/^[0-9]+$/.test(s) || Number(s) >= 2147483648) {
    process.stderr.write(`invalid HALEBENCH_SEED: ${s}\n`);
    process.exit(2);
  }
  return Number(s);
}

function main() {
  let acc = seedFromEnv() | 0;

  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ITERS; i++) {
    acc = (acc ^ i) | 0;
  }
  const t1 = process.hrtime.bigint();

  console.log(`elapsed_ns=${t1 - t0}`);
  console.log(`check=iters:${ITERS},acc:${acc}`);
}

main();
