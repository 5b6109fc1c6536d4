// form_hashmap_get (JavaScript / Node sibling)
// Shape: a Map filled outside the timer with 150,000 entries, key id = S + i, value an Entry
// object {id: S + i, v: i + 1} (S = HALEBENCH_SEED), as in form_hashmap_set; timed: 150,000
// lookups of key S + i, summing v of each hit.
// Fairness: the built-in Map; the sum stays below 2^53 (plain Number arithmetic).
"use strict";

const N = 150000;

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
  const m = new Map();
  for (let i = 0; i < N; i++) {
    const id = s + i;
    m.set(id, { id: id, v: i + 1 });
  }

  let acc = 0;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const e = m.get(s + i);
    if (e !== undefined) acc += e.v;
  }
  const t1 = process.hrtime.bigint();

  console.log(`elapsed_ns=${t1 - t0}`);
  console.log(`check=n:${N},acc:${acc}`);
}

main();
