# coord_with_churn (Python sibling)
#
# Workload: a parent Coord creates and dissolves K = 2,000 children one after another: each
# child is a new Worker(id = S+i) object (__slots__), handed to the parent (accept), read by a
# hook method that adds its id to the parent's sink, then released (the parent drops its
# reference, so refcounting frees it at once) before the next child is made. Timed: the whole
# parent lifetime, from its creation until it is dropped.
# Fairness: S = HALEBENCH_SEED (run time); CPython never inlines, every call is real.
import os
import sys
import time

K = 2000


def read_seed():
    s = os.environ.get("HALEBENCH_SEED", "")
    if s == "":
        return 0
    if not (s.isascii() and s.isdigit()) or int(s) >= 2**31:
        sys.stderr.write(f"HALEBENCH_SEED must be an integer in [0, 2^31): {s}\n")
        sys.exit(2)
    return int(s)


class Worker:
    __slots__ = ("id",)

    def __init__(self, id_):
        self.id = id_


class Coord:
    __slots__ = ("sink", "live")

    def __init__(self):
        self.sink = 0
        self.live = None

    def on_accept(self, w):
        self.sink += w.id

    def accept(self, w):
        self.live = w
        self.on_accept(w)

    def release(self):
        self.live = None


def main():
    seed = read_seed()

    t0 = time.perf_counter_ns()
    coord = Coord()
    for i in range(K):
        w = Worker(seed + i)
        coord.accept(w)
        coord.release()
        del w
    sink = coord.sink
    del coord
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=k:{K},sink:{sink}")


main()
