// vec_amortized (JavaScript sibling)
//
// Workload: n = 200,000. Timed region: make an empty Array, push S+i for i in 0..n, then sum
// every element by index. Freed later by the GC.
// Fairness: S = HALEBENCH_SEED (run time) so the sum cannot fold. Values reach 2^31 + n, past
// V8's small-integer range, so the array may hold doubles; every value and the sum stay below
// 2^53 and are exact.
'use strict';

const N = 200000;

function readSeed() {
  const s = process.env.HALEBENCH_SEED;
  if (s === undefined || s === '') return 0;
  if (!/^[0-9]+$/.test(s) || Number(s) >= 2 ** 31) {
    process.stderr.write(`HALEBENCH_SEED must be an integer in [0, 2^31): ${s}\n`);
    process.exit(2);
  }
  return Number(s);
}

function main() {
  const seed = readSeed();

  const t0 = process.hrtime.bigint();
  const v = [];
  for (let i = 0; i < N; i++) v.push(seed + i);
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i];
  const t1 = process.hrtime.bigint();

  if (v.length !== N) {
    process.stderr.write(`vector length ${v.length}, want ${N}\n`);
    process.exit(1);
  }
  process.stdout.write(`elapsed_ns=${t1 - t0}\n`);
  process.stdout.write(`check=n:${N},sum:${sum}\n`);
}

main();
