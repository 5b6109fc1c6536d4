# tree_fanout (Python sibling)
#
# Workload: a coordinator with K = 20 worker children (objects created by the parent and held in
# its list). For each child the parent's accept calls the child's compute(), which sums (j + S)
# for j in 0..M, M = 2,000, with a plain loop, and adds the result to the parent's total.
# Timed: building the tree, the 20 compute/accept steps and dropping the tree.
# Note: C and Rust fold compute()'s loop to a closed form, so this bench's ratio against them is
# not comparable; CPython runs the loop. S = HALEBENCH_SEED (run time).
import os
import sys
import time

K = 20
M = 2000


def read_seed():
    s = os.environ.get("HALEBENCH_SEED", "")
    if s == "":
        return 0
    if not (s.isascii() and s.isdigit()) or int(s) >= 2**31:
        sys.stderr.write(f"HALEBENCH_SEED must be an integer in [0, 2^31): {s}\n")
        sys.exit(2)
    return int(s)


class Worker:
    __slots__ = ("base", "m")

    def __init__(self, base, m):
        self.base = base
        self.m = m

    def compute(self):
        acc = 0
        base = self.base
        for j in range(self.m):
            acc += j + base
        return acc


class Coord:
    __slots__ = ("total", "children")

    def __init__(self):
        self.total = 0
        self.children = []

    def accept(self, w):
        self.total += w.compute()


def main():
    seed = read_seed()

    t0 = time.perf_counter_ns()
    coord = Coord()
    for _k in range(K):
        coord.children.append(Worker(seed, M))
    for w in coord.children:
        coord.accept(w)
    total = coord.total
    del coord
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=k:{K},m:{M},total:{total}")


main()
