# json_parse (Python sibling)
# Shape: the text {"sym": "BTCUSD", "bid": 50000, "ask": 50010, "bidsz": 12, "asksz": 8,
# "ts": 1700000000000, "seq": S} (S = HALEBENCH_SEED) is built with an f-string before t0;
# timed: 200,000 json.loads calls of it, each result read as a Quote, adding
# bid + ask + seq to total each time.
# Fairness: json.loads (C-accelerated scanner) produces a plain dict, not a typed Quote
# object; a general parser against the C and Rust hand parsers.
import json
import os
import sys
import time

ITERS = 200_000


def seed_from_env():
    s = os.environ.get("HALEBENCH_SEED", "")
    if s == "":
        return 0
    if not (s.isascii() and s.isdigit()) or int(s) >= 2**31:
        sys.stderr.write(f"invalid HALEBENCH_SEED: {s}\n")
        sys.exit(2)
    return int(s)


def main():
    s = seed_from_env()
    text = (
        '{"sym": "BTCUSD", "bid": 50000, "ask": 50010, "bidsz": 12, '
        f'"asksz": 8, "ts": 1700000000000, "seq": {s}}}'
    )

    total = 0
    t0 = time.perf_counter_ns()
    for _ in range(ITERS):
        q = json.loads(text)
        total += q["bid"] + q["ask"] + q["seq"]
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=iters:{ITERS},total:{total}")


main()
