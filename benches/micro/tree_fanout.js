// tree_fanout (JavaScript sibling)
//
// Workload: a coordinator with K = 20 worker children (objects created by the parent and held
// in its array). For each child the parent's accept calls the child's compute(), which sums
// (j + S) for j in 0..M, M = 2,000, and adds the result to the parent's total. Timed: building
// the tree and the 20 compute/accept steps (the GC frees the tree later).
// Note: C and Rust fold compute()'s loop to a closed form, so this bench's ratio against them is
// not comparable; V8 keeps the loop. JavaScript has no noinline (V8 may inline compute once
// hot). S = HALEBENCH_SEED (run time); sums stay below 2^53 and are exact.
'use strict';

const K = 20;
const M = 2000;

function readSeed() {
  const s = process.env.HALEBENCH_SEED;
  if (s === undefined || s === '') return 0;
  if (!/^[0-9]+$/.test(s) || Number(s) >= 2 ** 31) {
    process.stderr.write(`HALEBENCH_SEED must be an integer in [0, 2^31): ${s}\n`);
    process.exit(2);
  }
  return Number(s);
}

class TreeWorker {
  constructor(base, m) {
    this.base = base;
    this.m = m;
  }

  compute() {
    let acc = 0;
    for (let j = 0; j < this.m; j++) acc += j + this.base;
    return acc;
  }
}

class Coord {
  constructor() {
    this.total = 0;
    this.children = [];
  }

  accept(w) {
    this.total += w.compute();
  }
}

function main() {
  const seed = readSeed();

  const t0 = process.hrtime.bigint();
  let coord = new Coord();
  for (let k = 0; k < K; k++) coord.children.push(new TreeWorker(seed, M));
  for (let k = 0; k < K; k++) coord.accept(coord.children[k]);
  const total = coord.total;
  coord = null;
  const t1 = process.hrtime.bigint();

  process.stdout.write(`elapsed_ns=${t1 - t0}\n`);
  process.stdout.write(`check=k:${K},m:${M},total:${total}\n`);
}

main();
