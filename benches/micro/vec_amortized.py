# vec_amortized (Python sibling)
#
# Workload: n = 200,000. Timed region: make an empty list, append S+i for i in 0..n, then sum
# every element by index (a plain loop, not sum(), to keep the by-index read of the other
# siblings). Freed later by refcounting.
# Fairness: S = HALEBENCH_SEED (run time); ints are arbitrary precision, so nothing overflows.
import os
import sys
import time

N = 200000


def read_seed():
    s = os.environ.get("HALEBENCH_SEED", "")
    if s == "":
        return 0
    if not (s.isascii() and s.isdigit()) or int(s) >= 2**31:
        sys.stderr.write(f"HALEBENCH_SEED must be an integer in [0, 2^31): {s}\n")
        sys.exit(2)
    return int(s)


def main():
    seed = read_seed()

    t0 = time.perf_counter_ns()
    v = []
    for i in range(N):
        v.append(seed + i)
    total = 0
    for i in range(len(v)):
        total += v[i]
    t1 = time.perf_counter_ns()

    if len(v) != N:
        sys.stderr.write(f"vector length {len(v)}, want {N}\n")
        sys.exit(1)
    print(f"elapsed_ns={t1 - t0}")
    print(f"check=n:{N},sum:{total}")


main()
