// form_vec_get (JavaScript / Node sibling)
// Shape: an Array filled with v[i] = S + i for i < 200,000 (S = HALEBENCH_SEED) outside the
// timer; timed: acc ^= v[i] for every index 0..v.length-1 (JS array reads are always
// bounds-checked).
// Fairness: S + i < 2^32, so the XOR is done on uint32 (`^` then `>>> 0`), equal to the
// 64-bit result. For large S the array holds doubles (values above 2^31 - 1 are not Smis),
// so each read also converts double -> int32.
"use strict";

const N = 200000;

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
  for (let i = 0; i < N; i++) v.push(s + i);

  let acc = 0;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < v.length; i++) {
    acc = (acc ^ v[i]) >>> 0;
  }
  const t1 = process.hrtime.bigint();

  console.log(`elapsed_ns=${t1 - t0}`);
  console.log(`check=iters:${v.length},acc:${acc}`);
}

main();
