// form_hashmap_walk_large (JavaScript sibling)
//
// Workload: a Map from id to Entry{id, val} filled outside the timer with 100,000 entries
// Entry{id: S+i, val: 3i}. Timed: one full iteration (for..of over map.values()) summing
// val + (id - id).
// Fairness: ids come from S = HALEBENCH_SEED (run time); ids may exceed 2^31 and be held as
// doubles (exact below 2^53). V8 keeps a Map's entries in insertion order in a dense table, so
// the walk is a linear scan; entries are separate heap objects reached by pointer.
'use strict';

const N = 100000;

function readSeed() {
  const s = process.env.HALEBENCH_SEED;
  if (s === undefined || s === '') return 0;
  if (!/^[0-9]+$/.test(s) || Number(s) >= 2 ** 31) {
    process.stderr.write(`HALEBENCH_SEED must be an integer in [0, 2^31): ${s}\n`);
    process.exit(2);
  }
  return Number(s);
}

class Entry {
  constructor(id, val) {
    this.id = id;
    this.val = val;
  }
}

function main() {
  const seed = readSeed();
  const m = new Map();
  for (let i = 0; i < N; i++) m.set(seed + i, new Entry(seed + i, 3 * i));

  const t0 = process.hrtime.bigint();
  let sum = 0;
  for (const e of m.values()) sum += e.val + (e.id - e.id);
  const t1 = process.hrtime.bigint();

  process.stdout.write(`elapsed_ns=${t1 - t0}\n`);
  process.stdout.write(`check=n:${N},len:${m.size},sum:${sum}\n`);
}

main();
