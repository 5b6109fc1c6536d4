# form_vec_push (Python sibling)
# Shape: an empty list made before t0; timed: 500,000 appends of S + i (S = HALEBENCH_SEED).
# Fairness: plain list.append (CPython's over-allocating growth); each value is an int
# object, so this also pays an allocation per element that the native siblings do not.
import os
import sys
import time

ITERS = 500_000


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
    v = []

    t0 = time.perf_counter_ns()
    for i in range(ITERS):
        v.append(s + i)
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=iters:{ITERS},len:{len(v)}")


main()
