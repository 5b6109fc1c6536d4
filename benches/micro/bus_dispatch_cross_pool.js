// bus_dispatch_cross_pool (JavaScript sibling)
//
// Workload: 100,000 Tick{n: S+i} sent from the main thread to a consumer on another OS thread
// (a worker_threads Worker running this same file) through a bounded ring of capacity 64 that
// lives in a SharedArrayBuffer: 64 Float64 slots plus Int32 head/tail counters updated with
// Atomics; a side blocks with Atomics.wait when the ring is full / empty and is woken with
// Atomics.notify (only when it has flagged that it sleeps, like a condvar's waiter check). The
// consumer counts and sums n. The worker is started and has reported ready before t0. Timed:
// from the first publish until the main thread sees the consumer's done flag after it received
// all 100,000 (the drain is timed, not only the publish loop).
// Fairness: S = HALEBENCH_SEED (run time); values and the sum stay below 2^53 (exact in a
// Float64 slot). Pays what others do not: a second V8 isolate for the consumer (its start-up is
// outside the timer), Atomics calls that are not inlined in V8's lower tiers, and Atomics.wait /
// notify going through V8's futex emulation instead of a pthread condvar. No structured clone:
// ticks cross as numbers in shared memory.
'use strict';

const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');

const ITERS = 100000;
const CAP = 64; // power of two

// Int32 control words.
const HEAD = 0; // ticks published
const TAIL = 1; // ticks consumed
const PROD_SLEEP = 2; // producer is (about to be) blocked on TAIL
const CONS_SLEEP = 3; // consumer is (about to be) blocked on HEAD
const DONE = 4;
const CTRL_WORDS = 8;

function readSeed() {
  const s = process.env.HALEBENCH_SEED;
  if (s === undefined || s === '') return 0;
  if (!/^[0-9]+$/.test(s) || Number(s) >= 2 ** 31) {
    process.stderr.write(`HALEBENCH_SEED must be an integer in [0, 2^31): ${s}\n`);
    process.exit(2);
  }
  return Number(s);
}

function views(sab) {
  return {
    ctrl: new Int32Array(sab, 0, CTRL_WORDS),
    ring: new Float64Array(sab, CTRL_WORDS * 4, CAP),
    result: new Float64Array(sab, CTRL_WORDS * 4 + CAP * 8, 2),
  };
}

function consumerMain(sab) {
  const { ctrl, ring, result } = views(sab);
  parentPort.postMessage('ready');
  let tail = 0;
  let count = 0;
  let sum = 0;
  for (let i = 0; i < ITERS; i++) {
    let head = Atomics.load(ctrl, HEAD);
    while (head === tail) {
      Atomics.store(ctrl, CONS_SLEEP, 1);
      head = Atomics.load(ctrl, HEAD);
      if (head === tail) Atomics.wait(ctrl, HEAD, tail);
      Atomics.store(ctrl, CONS_SLEEP, 0);
      head = Atomics.load(ctrl, HEAD);
    }
    const n = ring[tail & (CAP - 1)];
    tail++;
    Atomics.store(ctrl, TAIL, tail);
    if (Atomics.load(ctrl, PROD_SLEEP) !== 0) Atomics.notify(ctrl, TAIL, 1);
    count++;
    sum += n;
  }
  result[0] = count;
  result[1] = sum;
  Atomics.store(ctrl, DONE, 1);
  Atomics.notify(ctrl, DONE, 1);
}

async function main() {
  const seed = readSeed();
  const sab = new SharedArrayBuffer(CTRL_WORDS * 4 + CAP * 8 + 2 * 8);
  const { ctrl, ring, result } = views(sab);
  const worker = new Worker(__filename, { workerData: sab });
  const exited = new Promise((resolve, reject) => {
    worker.on('exit', resolve);
    worker.on('error', reject);
  });
  await new Promise((resolve) => worker.once('message', resolve));

  const t0 = process.hrtime.bigint();
  let head = 0;
  for (let i = 0; i < ITERS; i++) {
    let tail = Atomics.load(ctrl, TAIL);
    while (head - tail >= CAP) {
      Atomics.store(ctrl, PROD_SLEEP, 1);
      tail = Atomics.load(ctrl, TAIL);
      if (head - tail >= CAP) Atomics.wait(ctrl, TAIL, tail);
      Atomics.store(ctrl, PROD_SLEEP, 0);
      tail = Atomics.load(ctrl, TAIL);
    }
    ring[head & (CAP - 1)] = seed + i;
    head++;
    Atomics.store(ctrl, HEAD, head);
    if (Atomics.load(ctrl, CONS_SLEEP) !== 0) Atomics.notify(ctrl, HEAD, 1);
  }
  while (Atomics.load(ctrl, DONE) === 0) Atomics.wait(ctrl, DONE, 0);
  const t1 = process.hrtime.bigint();

  const count = result[0];
  const sum = result[1];
  await exited;
  process.stdout.write(`elapsed_ns=${t1 - t0}\n`);
  process.stdout.write(`check=iters:${ITERS},count:${count},sum:${sum}\n`);
}

if (isMainThread) {
  main().catch((err) => {
    process.stderr.write(`${err && err.stack ? err.stack : err}\n`);
    process.exit(1);
  });
} else {
  consumerMain(workerData);
}
