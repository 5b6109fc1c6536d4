// fn_scratch_work (JavaScript sibling)
//
// Workload: 100 calls (c = 0..99) of f(c, S), a function that builds a local Array of 1,000 ints
// (j + S for j in 0..1000, pushed into an empty Array), sums it by index and returns the sum;
// the caller adds it to total. All 100 calls are timed.
// Fairness: S = HALEBENCH_SEED (run time). JavaScript has no noinline: V8 may inline the
// function once it is hot (only 100 calls, so mostly interpreter/baseline code runs). Values
// reach 2^31 + 1000 and may be held as doubles; all stay below 2^53 and are exact.
'use strict';

const CALLS = 100;
const ITEMS = 1000;

function readSeed() {
  const s = process.env.HALEBENCH_SEED;
  if (s === undefined || s === '') return 0;
  if (!/^[0-9]+$/.test(s) || Number(s) >= 2 ** 31) {
    process.stderr.write(`HALEBENCH_SEED must be an integer in [0, 2^31): ${s}\n`);
    process.exit(2);
  }
  return Number(s);
}

// c is the call index, as in the Hale version; the body does not depend on it.
function scratchWork(c, seed) {
  const v = [];
  for (let j = 0; j < ITEMS; j++) v.push(j + seed);
  let sum = 0;
  for (let j = 0; j < v.length; j++) sum += v[j];
  return sum;
}

function main() {
  const seed = readSeed();

  const t0 = process.hrtime.bigint();
  let total = 0;
  for (let c = 0; c < CALLS; c++) total += scratchWork(c, seed);
  const t1 = process.hrtime.bigint();

  process.stdout.write(`elapsed_ns=${t1 - t0}\n`);
  process.stdout.write(`check=calls:${CALLS},total:${total}\n`);
}

main();
