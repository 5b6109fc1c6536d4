# bus_dispatch_heap_payload (Python sibling)
# Shape: one subscriber registered on subject "bench.beat.heap" before t0, and the label
# "tick" built at run time before t0; timed: 50,000 publishes of Beat(n = S + i, label)
# (S = HALEBENCH_SEED). Each publish looks the subject up by its string key in a dict, makes
# the subscriber's own copy of the payload (a new Beat object) and calls the subscriber (a
# closure) through the value found; the subscriber counts.
# Fairness: Python str is immutable and shared by reference, so the copy duplicates the
# object but not the label bytes (C/Rust/Go allocate and copy the label): this flatters
# Python slightly. Beat is a __slots__ class: two object allocations per publish.
import os
import sys
import time

ITERS = 50_000


def seed_from_env():
    s = os.environ.get("HALEBENCH_SEED", "")
    if s == "":
        return 0
    if not (s.isascii() and s.isdigit()) or int(s) >= 2**31:
        sys.stderr.write(f"invalid HALEBENCH_SEED: {s}\n")
        sys.exit(2)
    return int(s)


class Beat:
    __slots__ = ("n", "label")

    def __init__(self, n, label):
        self.n = n
        self.label = label


class Bus:
    def __init__(self):
        self.subjects = {}

    def subscribe(self, subject, handler):
        self.subjects[subject] = handler

    # Delivers a copy: the subscriber gets its own Beat object.
    def publish(self, subject, msg):
        handler = self.subjects.get(subject)
        if handler is not None:
            handler(Beat(msg.n, msg.label))


def main():
    s = seed_from_env()

    bus = Bus()
    count = 0

    def on_beat(msg):
        nonlocal count
        count += 1

    bus.subscribe("bench.beat.heap", on_beat)
    label = "".join(["ti", "ck"])

    t0 = time.perf_counter_ns()
    for i in range(ITERS):
        bus.publish("bench.beat.heap", Beat(s + i, label))
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=iters:{ITERS},count:{count}")


main()
