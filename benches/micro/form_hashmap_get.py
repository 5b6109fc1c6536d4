# form_hashmap_get (Python sibling)
# Shape: a dict filled outside the timer with 150,000 entries, key id = S + i, value Entry
# (id = S + i, v = i + 1) as a tuple (S = HALEBENCH_SEED), as in form_hashmap_set; timed:
# 150,000 lookups of key S + i, summing v of each hit.
# Fairness: the built-in dict with dict.get (a miss would not count); int hashing is the
# identity, so consecutive keys are cheap for dict.
import os
import sys
import time

N = 150_000


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
    for i in range(N):
        key = s + i
        m[key] = (key, i + 1)

    acc = 0
    t0 = time.perf_counter_ns()
    for i in range(N):
        e = m.get(s + i)
        if e is not None:
            acc += e[1]
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=n:{N},acc:{acc}")


main()
