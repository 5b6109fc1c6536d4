# fn_call (Python sibling)
# Shape: 10,000,000 calls of step(x) = x*2 + 1 with x = i + S (S = HALEBENCH_SEED), acc = the
# result of each call; only the call loop is timed (time.perf_counter_ns, monotonic).
# Fairness: CPython never inlines, so every iteration is a real call (no flag needed).
# Arguments come from S. The loop runs inside a function so its variables are fast locals.
import os
import sys
import time

ITERS = 10_000_000


def seed_from_env():
    s = os.environ.get("HALEBENCH_SEED", "")
    if s == "":
        return 0
    if not (s.isascii() and s.isdigit()) or int(s) >= 2**31:
        sys.stderr.write(f"invalid HALEBENCH_SEED: {s}\n")
        sys.exit(2)
    return int(s)


def step(x):
    return x * 2 + 1


def main():
    s = seed_from_env()
    acc = 0

    t0 = time.perf_counter_ns()
    for i in range(ITERS):
        acc = step(i + s)
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=iters:{ITERS},acc:{acc}")


main()
