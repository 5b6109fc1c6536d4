# form_vec_get (Python sibling)
# Shape: a list filled with v[i] = S + i for i < 200,000 (S = HALEBENCH_SEED) outside the
# timer; timed: acc ^= v[i] for every index 0..len(v)-1 (list indexing is bounds-checked).
# Fairness: reads go through explicit indexing, not `for x in v`, to keep the indexed-read
# shape of the other siblings.
import os
import sys
import time

N = 200_000


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
    for i in range(N):
        v.append(s + i)

    acc = 0
    t0 = time.perf_counter_ns()
    for i in range(len(v)):
        acc ^= v[i]
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=iters:{len(v)},acc:{acc}")


main()
