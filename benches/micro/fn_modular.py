# fn_modular (Python sibling)
# Shape: 10,000,000 calls of outer(x) = inner(x) * 3 with inner(x) = x + 1, x = i + S
# (S = HALEBENCH_SEED), acc = the result of each call; only the call loop is timed.
# Fairness: CPython never inlines, so every iteration makes two real calls. Arguments come
# from S. The loop runs inside a function so its variables are fast locals.
import os
import sys
import time

ITERS = 10_000_000


def seed_from_env():
    s = os.environ.get("HALEBENCH_SEED", "")
    if s == "":
        return 0
    if not (s.isascii() and s.isdigit()) or int(s) >= 2**31:
        sys.stderr.write(f"invalid HALEBENCH_SEED: {s}\n")
        sys.exit(2)
    return int(s)


def inner(x):
    return x + 1


def outer(x):
    return inner(x) * 3


def main():
    s = seed_from_env()
    acc = 0

    t0 = time.perf_counter_ns()
    for i in range(ITERS):
        acc = outer(i + s)
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=iters:{ITERS},acc:{acc}")


main()
