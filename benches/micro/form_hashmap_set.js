// form_hashmap_set (JavaScript / Node sibling)
// Shape: an empty Map made before t0; timed: 1,000,000 inserts with key id = S + i and value
// an Entry object {id: S + i, v: i + 1} (S = HALEBENCH_SEED).
// Fairness: the built-in Map (insertion-ordered hash table) with one heap object per entry.
// Keys above 2^31 - 1 are heap numbers rather than Smis, so large S costs a bit more.
"use strict";

const N = 1000000;

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

  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const id = s + i;
    m.set(id, { id: id, v: i + 1 });
  }
  const t1 = process.hrtime.bigint();

  console.log(`elapsed_ns=${t1 - t0}`);
  console.log(`check=n:${N},len:${m.size}`);
}

main();
