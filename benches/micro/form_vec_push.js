// form_vec_push (JavaScript / Node sibling)
// Shape: an empty Array made before t0; timed: 500,000 pushes of S + i (S = HALEBENCH_SEED).
// Fairness: plain Array.push with V8's own growth policy. Values above 2^31 - 1 are not Smis,
// so for large S the array holds unboxed doubles (a different element kind than small S,
// which may shift the timing slightly with S).
"use strict";

const ITERS = 500000;

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
  const s = seedFromEnv();
  const v = [];

  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ITERS; i++) {
    v.push(s + i);
  }
  const t1 = process.hrtime.bigint();

  console.log(`elapsed_ns=${t1 - t0}`);
  console.log(`check=iters:${ITERS},len:${v.length}`);
}

main();
