# locus_instantiation (Python sibling)
# Shape: 100,000 times: create a one-field object {v = S + i} (S = HALEBENCH_SEED), read v
# through a method, sink ^= v, drop it. Only the loop is timed (time.perf_counter_ns).
# Fairness: Obj is a __slots__ class, so each iteration is one real heap object (plus the
# __init__ and method calls CPython always makes); refcounting frees it immediately.
import os
import sys
import time

ITERS = 100_000


def seed_from_env():
    s = os.environ.get("HALEBENCH_SEED", "")
    if s == "":
        return 0
    if not (s.isascii() and s.isdigit()) or int(s) >= 2**31:
        sys.stderr.write(f"invalid HALEBENCH_SEED: {s}\n")
        sys.exit(2)
    return int(s)


class Obj:
    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v

    def get(self):
        return self.v


def main():
    s = seed_from_env()
    sink = 0

    t0 = time.perf_counter_ns()
    for i in range(ITERS):
        o = Obj(s + i)
        sink ^= o.get()
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=iters:{ITERS},sink:{sink}")


main()
