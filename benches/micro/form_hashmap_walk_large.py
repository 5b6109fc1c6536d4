# form_hashmap_walk_large (Python sibling)
#
# Workload: a dict from id to Entry(id, val) (__slots__ objects) filled outside the timer with
# 100,000 entries Entry(id = S+i, val = 3i). Timed: one full iteration over dict.values()
# summing val + (id - id).
# Fairness: ids come from S = HALEBENCH_SEED (run time). CPython evaluates (id - id) every time
# (no folding) and keeps a dict's entries in a dense insertion-ordered array, so the walk is a
# linear scan.
import os
import sys
import time

N = 100000


def read_seed():
    s = os.environ.get("HALEBENCH_SEED", "")
    if s == "":
        return 0
    if not (s.isascii() and s.isdigit()) or int(s) >= 2**31:
        sys.stderr.write(f"HALEBENCH_SEED must be an integer in [0, 2^31): {s}\n")
        sys.exit(2)
    return int(s)


class Entry:
    __slots__ = ("id", "val")

    def __init__(self, id_, val):
        self.id = id_
        self.val = val


def main():
    seed = read_seed()
    m = {}
    for i in range(N):
        m[seed + i] = Entry(seed + i, 3 * i)

    t0 = time.perf_counter_ns()
    total = 0
    for e in m.values():
        total += e.val + (e.id - e.id)
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=n:{N},len:{len(m)},sum:{total}")


main()
