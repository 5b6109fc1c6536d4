// coord_with_churn (JavaScript sibling)
//
// Workload: a parent Coord creates and dissolves K = 2,000 children one after another: each
// child is a new ChildWorker{id: S+i} object, handed to the parent (accept), read by a hook
// method that adds its id to the parent's sink, then released (the parent drops its reference)
// before the next child is made. Timed: the whole parent lifetime.
// Fairness: S = HALEBENCH_SEED (run time) so the sink cannot fold. JavaScript has no noinline;
// V8 may inline the hook and even scalar-replace short-lived objects once optimised (with only
// 2,000 iterations most of the run is interpreter/baseline code). Objects are reclaimed by the
// GC later, not in the timed region.
'use strict';

const K = 2000;

function readSeed() {
  const s = process.env.HALEBENCH_SEED;
  if (s === undefined || s === '') return 0;
  if (!/^[0-9]+$/.test(s) || Number(s) >= 2 ** 31) {
    process.stderr.write(`HALEBENCH_SEED must be an integer in [0, 2^31): ${s}\n`);
    process.exit(2);
  }
  return Number(s);
}

class ChildWorker {
  constructor(id) {
    this.id = id;
  }
}

class Coord {
  constructor() {
    this.sink = 0;
    this.live = null;
  }

  onAccept(w) {
    this.sink += w.id;
  }

  accept(w) {
    this.live = w;
    this.onAccept(w);
  }

  release() {
    this.live = null;
  }
}

function main() {
  const seed = readSeed();

  const t0 = process.hrtime.bigint();
  let coord = new Coord();
  for (let i = 0; i < K; i++) {
    const w = new ChildWorker(seed + i);
    coord.accept(w);
    coord.release();
  }
  const sink = coord.sink;
  coord = null;
  const t1 = process.hrtime.bigint();

  process.stdout.write(`elapsed_ns=${t1 - t0}\n`);
  process.stdout.write(`check=k:${K},sink:${sink}\n`);
}

main();
