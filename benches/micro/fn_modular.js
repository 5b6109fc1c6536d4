// fn_modular (JavaScript / Node sibling)
// Shape: 10,000,000 calls of outer(x) = inner(x) * 3 with inner(x) = x + 1, x = i + S
// (S = HALEBENCH_SEED), acc = the result of each call; only the call loop is timed.
// Fairness: stock Node has no way to forbid inlining, so V8 may inline both levels and drop
// the overwritten results; this flatters JS against the noinline C/Rust/Go siblings. Values
// stay below 2^53 (plain Number arithmetic). Arguments come from S.
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

function inner(x) {
  return x + 1;
}

function outer(x) {
  return inner(x) * 3;
}

function main() {
  const s = seedFromEnv();
  let acc = 0;

  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ITERS; i++) {
    acc = outer(i + s);
  }
  const t1 = process.hrtime.bigint();

  console.log(`elapsed_ns=${t1 - t0}`);
  console.log(`check=iters:${ITERS},acc:${acc}`);
}

main();
