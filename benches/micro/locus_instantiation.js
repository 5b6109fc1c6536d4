// locus_instantiation (JavaScript / Node sibling)
// Shape: 100,000 times: allocate a one-field object {v = S + i} (S = HALEBENCH_SEED) with
// `new`, read v through a method, sink ^= v, drop it. Only the loop is timed.
// Fairness: each object is stored to a module-level variable so V8's escape analysis cannot
// scalar-replace it: every iteration is a real (young-generation) heap allocation. Node
// cannot forbid inlining, so V8 may inline the method (flatters JS). S + i < 2^32, so the
// XOR is done on uint32 (`^` then `>>> 0`), equal to the 64-bit result.
"use strict";

const ITERS = 100000;

function seedFromEnv() {
  const s = process.env.HALEBENCH_SEED;
  if (s === undefined || s === "") return 0;
  if (!/^[0-9]+$/.test(s) || Number(s) >= 2147483648) {
    process.stderr.write(`invalid HALEBENCH_SEED: ${s}\n`);
    process.exit(2);
  }
  return Number(s);
}

class Obj {
  constructor(v) {
    this.v = v;
  }
  get() {
    return this.v;
  }
}

let escaped = null;

function main() {
  const s = seedFromEnv();
  let sink = 0;

  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ITERS; i++) {
    const o = new Obj(s + i);
    escaped = o;
    sink = (sink ^ o.get()) >>> 0;
  }
  const t1 = process.hrtime.bigint();
  escaped = null;

  console.log(`elapsed_ns=${t1 - t0}`);
  console.log(`check=iters:${ITERS},sink:${sink}`);
}

main();
