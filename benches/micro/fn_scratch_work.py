# fn_scratch_work (Python sibling)
#
# Workload: 100 calls (c = 0..99) of f(c, S), a function that builds a local list of 1,000 ints
# (j + S for j in 0..1000, appended to an empty list), sums it by index with a plain loop and
# returns the sum; the caller adds it to total. All 100 calls are timed.
# Fairness: S = HALEBENCH_SEED (run time); CPython never inlines, so every call is real.
import os
import sys
import time

CALLS = 100
ITEMS = 1000


def read_seed():
    s = os.environ.get("HALEBENCH_SEED", "")
    if s == "":
        return 0
    if not (s.isascii() and s.isdigit()) or int(s) >= 2**31:
        sys.stderr.write(f"HALEBENCH_SEED must be an integer in [0, 2^31): {s}\n")
        sys.exit(2)
    return int(s)


def scratch_work(c, seed):  # c: the call index; the body does not depend on it
    v = []
    for j in range(ITEMS):
        v.append(j + seed)
    total = 0
    for j in range(len(v)):
        total += v[j]
    return total


def main():
    seed = read_seed()

    t0 = time.perf_counter_ns()
    total = 0
    for c in range(CALLS):
        total += scratch_work(c, seed)
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=calls:{CALLS},total:{total}")


main()
