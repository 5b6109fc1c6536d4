# form_hashmap_false_sharing (Python sibling)
#
# Workload: one shared dict guarded by one threading.Lock; two writer threads insert
# concurrently, writer A ids 2i and writer B ids 2i+1, value i, for i in 0..100,000 (one
# acquire/release per insert). The dict starts empty and grows under the lock. Both threads are
# started and have passed a ready Barrier before t0; an Event releases them right after t0.
# Timed: until both writers are joined. total = len(dict) (200,000).
# Fairness: the keys are fixed by the workload (2i, 2i+1); the result is the dict's real
# length. Pays what others do not: the GIL serialises the two writers anyway, so the explicit
# lock is pure overhead and thread switches are decided by CPython's switch interval.
import os
import sys
import threading
import time

PER_WRITER = 100000


def read_seed():
    s = os.environ.get("HALEBENCH_SEED", "")
    if s == "":
        return 0
    if not (s.isascii() and s.isdigit()) or int(s) >= 2**31:
        sys.stderr.write(f"HALEBENCH_SEED must be an integer in [0, 2^31): {s}\n")
        sys.exit(2)
    return int(s)


def writer(shared, lock, parity, ready, start):
    ready.wait()
    start.wait()
    for i in range(PER_WRITER):
        with lock:
            shared[2 * i + parity] = i


def main():
    read_seed()  # validated for uniformity; this workload's keys are fixed (2i, 2i+1)
    shared = {}
    lock = threading.Lock()
    ready = threading.Barrier(3)
    start = threading.Event()
    threads = [
        threading.Thread(target=writer, args=(shared, lock, parity, ready, start))
        for parity in (0, 1)
    ]
    for th in threads:
        th.start()
    ready.wait()

    t0 = time.perf_counter_ns()
    start.set()
    for th in threads:
        th.join()
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=per_writer:{PER_WRITER},total:{len(shared)}")


main()
