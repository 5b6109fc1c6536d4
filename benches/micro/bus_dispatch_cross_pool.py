# bus_dispatch_cross_pool (Python sibling)
#
# Workload: 100,000 Tick(n = S+i) objects sent from the main thread to a consumer thread
# (threading.Thread) through queue.Queue(maxsize=64). The consumer counts and sums n. The
# consumer thread is started and has set a ready Event before t0. Timed: from the first put
# until the main thread has joined the consumer after it received all 100,000 (the drain is
# timed, not only the put loop).
# Fairness: S = HALEBENCH_SEED (run time). put blocks when the queue is full and get when it is
# empty, like the other siblings' bounded queues. Pays what others do not: the GIL (the two
# threads never run Python code at the same time) and Queue's lock/condition machinery written
# in Python; each Tick is an object allocated by the producer.
import os
import queue
import sys
import threading
import time

ITERS = 100000
CAP = 64


def read_seed():
    s = os.environ.get("HALEBENCH_SEED", "")
    if s == "":
        return 0
    if not (s.isascii() and s.isdigit()) or int(s) >= 2**31:
        sys.stderr.write(f"HALEBENCH_SEED must be an integer in [0, 2^31): {s}\n")
        sys.exit(2)
    return int(s)


class Tick:
    __slots__ = ("n",)

    def __init__(self, n):
        self.n = n


def consume(q, ready, result):
    ready.set()
    get = q.get
    count = 0
    total = 0
    for _ in range(ITERS):
        t = get()
        count += 1
        total += t.n
    result.append((count, total))


def main():
    seed = read_seed()
    q = queue.Queue(maxsize=CAP)
    ready = threading.Event()
    result = []
    th = threading.Thread(target=consume, args=(q, ready, result))
    th.start()
    ready.wait()

    t0 = time.perf_counter_ns()
    put = q.put
    for i in range(ITERS):
        put(Tick(seed + i))
    th.join()
    t1 = time.perf_counter_ns()

    count, total = result[0]
    print(f"elapsed_ns={t1 - t0}")
    print(f"check=iters:{ITERS},count:{count},sum:{total}")


main()
