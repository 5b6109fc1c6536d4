# bus_dispatch (Python sibling)
# Shape: one subscriber registered on subject "bench.tick" before t0; timed: 100,000
# publishes of Tick(n = S + i) (S = HALEBENCH_SEED). Each publish looks the subject up by its
# string key in a dict, then calls the subscriber (a closure) through the value found; the
# subscriber counts messages.
# Fairness: dict lookup on every publish (str keys cache their hash, a language trait); Tick
# is a __slots__ class, so each publish allocates one object, like the JS sibling.
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


class Tick:
    __slots__ = ("n",)

    def __init__(self, n):
        self.n = n


class Bus:
    def __init__(self):
        self.subjects = {}

    def subscribe(self, subject, handler):
        self.subjects[subject] = handler

    def publish(self, subject, msg):
        handler = self.subjects.get(subject)
        if handler is not None:
            handler(msg)


def main():
    s = seed_from_env()

    bus = Bus()
    count = 0

    def on_tick(msg):
        nonlocal count
        count += 1

    bus.subscribe("bench.tick", on_tick)

    t0 = time.perf_counter_ns()
    for i in range(ITERS):
        bus.publish("bench.tick", Tick(s + i))
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=iters:{ITERS},count:{count}")


main()
