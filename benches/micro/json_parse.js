// json_parse (JavaScript / Node sibling)
// Shape: the text {"sym": "BTCUSD", "bid": 50000, "ask": 50010, "bidsz": 12, "asksz": 8,
// "ts": 1700000000000, "seq": S} (S = HALEBENCH_SEED) is built with a template literal before
// t0; timed: 200,000 JSON.parse calls of it, each result read as a Quote, adding
// bid + ask + seq to total each time.
// Fairness: JSON.parse is V8's general-purpose native parser producing a plain object (no
// typed Quote class); a general parser against the C and Rust hand parsers. The total stays
// below 2^53 (plain Number arithmetic).
"use strict";

const ITERS = 200000;

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
  const text = `{"sym": "BTCUSD", "bid": 50000, "ask": 50010, "bidsz": 12, "asksz": 8, "ts": 1700000000000, "seq": ${s}}`;

  let total = 0;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < ITERS; i++) {
    const q = JSON.parse(text);
    total += q.bid + q.ask + q.seq;
  }
  const t1 = process.hrtime.bigint();

  console.log(`elapsed_ns=${t1 - t0}`);
  console.log(`check=iters:${ITERS},total:${total}`);
}

main();
