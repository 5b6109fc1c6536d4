// halebench xproc: shared-memory delivery (Node sibling).
// † THREADS IN ONE PROCESS. NOT COMPARABLE TO THE CROSS-PROCESS ROWS.
//
// Usage: node xproc.js pair small|large
//
// Node's standard library cannot share memory between processes (no mmap, no POSIX
// shm without a native addon, and this repo forbids extra dependencies). So this
// sibling runs the producer in a worker_threads Worker (this same file) and the reader
// on the main thread. They share a SharedArrayBuffer with the layout the
// cross-process siblings use. The result counts as a † row: it is delivery between
// threads, a weaker capability than delivery between processes or containers. There
// is no `reader`/`producer` role and no `ready` line.
//
// Workload: the producer writes N fixed records and the reader consumes them. The
// ring has room for all N records, so nothing wraps and nothing is dropped.
//   small: N = 200000 slots of 16 bytes {px, sz}, with px = i and sz = i+1. This
//          variant is bound by the cost of each delivery.
//   large: N = 20000 slots of 4096 bytes (512 int64s), with field k = i + k. The
//          reader sums all 512 fields of every slot where the slot sits (no copy).
//          Expected total: 105011200000.
//
// Layout: a 64-byte header whose first int64 is write_seq (records committed), then
// the N slots, all little-endian int64s. write_seq is accessed only through Atomics on
// a BigInt64Array. Slot data goes through an Int32Array over the same buffer, as
// (low, high) 32-bit halves. That is an exact little-endian int64 encoding for these
// values, which are all non-negative and below 2^31. Reading them back as
// lo + hi * 2^32 is exact below 2^53, and the large total of about 1.05e11 fits that
// too. Slots are not read through BigInt64Array because that would allocate a BigInt
// per field on both sides. That would measure BigInt boxing, not delivery.
//
// Memory ordering: the producer writes slot i with plain typed-array stores, then does
// Atomics.store(seq, 0, BigInt(i+1)), which is sequentially consistent and stronger
// than the release the protocol asks for. The reader polls with Atomics.load, also
// sequentially consistent. Under the JS memory model, that pair makes the slot writes
// happen-before the reader's plain reads of slots below the value it loaded.
//
// Timed region: the reader's clock (process.hrtime.bigint) starts when write_seq >= 1
// is first seen and stops when all N records have been consumed. Worker start-up
// happens before the first record and is not timed. There are no page faults across
// processes here: the SharedArrayBuffer is allocated, and zeroed, before the worker
// starts.
//
// Fairness: the consumer work matches the other siblings. In small, the reader checks
// (px, sz) == (i, i+1) for every record, then reads the last slot for the check line.
// In large, it sums every field in place. HALEBENCH_SEED is not used: the data arrives
// from another thread at run time, and the protocol fixes the check line.
//
// Timeout: if write_seq does not advance for HALEBENCH_XPROC_TIMEOUT_MS ms (default
// 10000), the reader prints status=producer_failed and exits 3. Bad data still prints
// the check line, and the reader then exits 4. The clock is read only once every 4096
// idle polls.
'use strict';

const { Worker, isMainThread, workerData } = require('worker_threads');

const HEADER_BYTES = 64;
const HEADER_I32 = HEADER_BYTES / 4;
const SMALL_N = 200000;
const LARGE_N = 20000;
const LARGE_FIELDS = 512;
const LARGE_EXPECTED_SUM = 105011200000;
const TWO32 = 4294967296;
const POLL_MASK = 4095;

function shape(large) {
  const n = large ? LARGE_N : SMALL_N;
  const words = large ? LARGE_FIELDS : 2;
  return { n, words, total: HEADER_BYTES + n * words * 8 };
}

function timeoutNs() {
  const v = Number.parseInt(process.env.HALEBENCH_XPROC_TIMEOUT_MS || '', 10);
  return BigInt(Number.isFinite(v) && v > 0 ? v : 10000) * 1000000n;
}

function produce(sab, large) {
  const { n, words } = shape(large);
  const seq = new BigInt64Array(sab, 0, 1);
  const i32 = new Int32Array(sab);
  if (large) {
    for (let i = 0; i < n; i++) {
      let p = HEADER_I32 + i * words * 2;
      for (let k = 0; k < LARGE_FIELDS; k++) {
        i32[p] = i + k; // low half
        i32[p + 1] = 0; // high half (values are below 2^31)
        p += 2;
      }
      Atomics.store(seq, 0, BigInt(i + 1));
    }
  } else {
    for (let i = 0; i < n; i++) {
      const p = HEADER_I32 + i * 4;
      i32[p] = i;
      i32[p + 1] = 0;
      i32[p + 2] = i + 1;
      i32[p + 3] = 0;
      Atomics.store(seq, 0, BigInt(i + 1));
    }
  }
}

function read(sab, large) {
  const { n, words } = shape(large);
  const seq = new BigInt64Array(sab, 0, 1);
  const i32 = new Int32Array(sab);
  const tmo = timeoutNs();
  const clock = process.hrtime.bigint;

  let seen = 0, mark = 0, bad = 0, sum = 0, idle = 0;
  let t0 = -1n;
  let tProgress = clock();

  while (seen < n) {
    let w = Number(Atomics.load(seq, 0));
    if (w > seen) {
      if (t0 < 0n) t0 = clock();
      if (w > n) w = n;
      if (large) {
        const end = HEADER_I32 + w * words * 2;
        let s = 0;
        for (let p = HEADER_I32 + seen * words * 2; p < end; p += 2) {
          s += (i32[p] >>> 0) + i32[p + 1] * TWO32;
        }
        sum += s;
      } else {
        for (let i = seen; i < w; i++) {
          const p = HEADER_I32 + i * 4;
          const px = (i32[p] >>> 0) + i32[p + 1] * TWO32;
          const sz = (i32[p + 2] >>> 0) + i32[p + 3] * TWO32;
          if (px !== i || sz !== i + 1) bad++;
        }
      }
      seen = w;
      continue;
    }
    idle = (idle + 1) | 0;
    if ((idle & POLL_MASK) === 0) {
      const t = clock();
      if (seen !== mark) {
        mark = seen;
        tProgress = t;
      } else if (t - tProgress > tmo) {
        process.stdout.write('status=producer_failed\n');
        process.stderr.write(`xproc: no progress for ${tmo / 1000000n} ms at ${seen}/${n} records\n`);
        return 3;
      }
    }
  }
  const elapsed = clock() - t0;

  let ok, check;
  if (large) {
    ok = sum === LARGE_EXPECTED_SUM;
    check = `check=n:${seen},sum:${sum}`;
  } else {
    const p = HEADER_I32 + (n - 1) * 4;
    const lastPx = (i32[p] >>> 0) + i32[p + 1] * TWO32;
    const lastSz = (i32[p + 2] >>> 0) + i32[p + 3] * TWO32;
    ok = bad === 0 && lastPx === n - 1 && lastSz === n;
    check = `check=n:${seen},last_px:${lastPx},last_sz:${lastSz}`;
    if (bad) process.stderr.write(`xproc: ${bad} records held wrong values\n`);
  }
  process.stdout.write(`elapsed_ns=${elapsed}\n${check}\n`);
  return ok ? 0 : 4;
}

if (isMainThread) {
  const role = process.argv[2];
  const variant = process.argv[3];
  if (role !== 'pair' || (variant !== 'small' && variant !== 'large')) {
    process.stderr.write('usage: node xproc.js pair small|large\n' +
      '(Node has no cross-process shared memory in its stdlib: only the in-process pair runs)\n');
    process.exit(2);
  }
  const large = variant === 'large';
  const sab = new SharedArrayBuffer(shape(large).total);
  const worker = new Worker(__filename, { workerData: { sab, large } });
  worker.on('error', (e) => {
    process.stderr.write(`xproc: producer worker failed: ${e && e.stack ? e.stack : e}\n`);
    process.exitCode = 3;
  });
  // The spin below blocks this thread's event loop, but the worker runs on its own
  // thread and needs nothing from this one.
  const code = read(sab, large);
  if (code === 3) process.exit(3); // do not wait for a stuck producer
  process.exitCode = code;
} else {
  produce(workerData.sab, workerData.large);
}
