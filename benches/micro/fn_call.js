// fn_call (JavaScript / Node sibling)
// Shape: 10,000,000 calls of step(x) = x*2 + 1 with x = i + S (S = HALEBENCH_SEED), acc = the
// result of each call; only the call loop is timed (process.hrtime.bigint, monotonic).
// Fairness: stock Node has no way to forbid inlining, so V8's optimising tier may inline step
// and drop the overwritten results; this flatters JS against the noinline C/Rust/Go siblings.
// Values stay below 2^53 (plain Number arithmetic, no |0). Arguments come from S.
"use strict";

const ITERS = 10000000;

function seedFromEnv() {
  const s = process.env.HALEBENCH_SEED;
  if (s === undefined || s === "") return 0;
  if (!/^[0-9]+$/.test(s) || Number(s) >= 2147483648) {
    process.stderr.write(`invalid HALEBENCH_SEED: ${s}\n`);
    process.exit(2);
  }
  return Number(s);
}

function step(x) {
  return x * 2 + 1;
}

function main() {
  const s = seedFromEnv();
  let acc = 0;

  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ITERS; i++) {
    acc = step(i + s);
  }
  const t1 = process.hrtime.bigint();

  console.log(`elapsed_ns=${t1 - t0}`);
  console.log(`check=iters:${ITERS},acc:${acc}`);
}

main();
