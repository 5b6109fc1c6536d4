# form_hashmap_set (Python sibling)
# Shape: an empty dict made before t0; timed: 1,000,000 inserts with key id = S + i and value
# Entry (id = S + i, v = i + 1) (S = HALEBENCH_SEED).
# Fairness: the built-in dict. Entry is a plain tuple (id, v), the cheapest record CPython
# has (a class instance would cost several times more per insert); int hashing is the
# identity, so consecutive keys are cheap for dict.
import os
import sys
import time

N = 1_000_000


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
    m = {}

    t0 = time.perf_counter_ns()
    for i in range(N):
        key = s + i
        m[key] = (key, i + 1)
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=n:{N},len:{len(m)}")


main()
