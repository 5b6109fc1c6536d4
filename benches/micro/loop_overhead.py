# loop_overhead (Python sibling)
# Shape: acc starts at the run-time seed S (HALEBENCH_SEED); 100,000,000 iterations of
# acc ^= i for i = 0..N-1. Only the loop is timed (time.perf_counter_ns, monotonic).
# Fairness: acc comes from S so nothing folds to a constant. The loop runs inside a function so
# acc and i are fast locals; CPython interprets every iteration (expect tens of seconds).
import os
import sys
import time

ITERS = 100_000_000


def seed_from_env():
    s = os.environ.get("HALEBENCH_SEED", "")
    if s == "":
        return 0
    if not (s.isascii() and s.isdigit()) or int(s) >= 2**31:
        sys.stderr.write(f"invalid HALEBENCH_SEED: {s}\n")
        sys.exit(2)
    return int(s)


def main():
    acc = seed_from_env()

    t0 = time.perf_counter_ns()
    for i in range(ITERS):
        acc ^= i
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=iters:{ITERS},acc:{acc}")


main()
