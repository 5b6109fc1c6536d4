# stream_aggregator (Python sibling)
#
# Workload: an Aggregator subscribed to "bench.sample" before t0 (a dict from subject string to
# handler). Timed: 200,000 publishes of Sample(value = (31*(S+i)+7) mod 1000); each publish
# looks the subject up in the dict, then calls the handler (a bound method), which keeps count,
# sum, min and max.
# Fairness: S = HALEBENCH_SEED (run time). Each Sample is a small __slots__ object allocated per
# publish, like the typed message of the other siblings. CPython caches a str's hash, so the
# dict lookup does not rehash the subject each time (the runtime's own behaviour, kept).
# Delivery is a direct synchronous call (no queue), the same shape every sibling uses.
import os
import sys
import time

ITERS = 200000


def read_seed():
    s = os.environ.get("HALEBENCH_SEED", "")
    if s == "":
        return 0
    if not (s.isascii() and s.isdigit()) or int(s) >= 2**31:
        sys.stderr.write(f"HALEBENCH_SEED must be an integer in [0, 2^31): {s}\n")
        sys.exit(2)
    return int(s)


class Sample:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Aggregator:
    __slots__ = ("count", "sum", "min", "max")

    def __init__(self):
        self.count = 0
        self.sum = 0
        self.min = 1 << 62
        self.max = -(1 << 62)

    def on_sample(self, s):
        self.count += 1
        v = s.value
        self.sum += v
        if v < self.min:
            self.min = v
        if v > self.max:
            self.max = v


class Bus:
    __slots__ = ("routes",)

    def __init__(self):
        self.routes = {}

    def subscribe(self, subject, fn):
        self.routes[subject] = fn

    def publish(self, subject, s):
        fn = self.routes.get(subject)
        if fn is not None:
            fn(s)


def main():
    seed = read_seed()
    agg = Aggregator()
    bus = Bus()
    bus.subscribe("bench.sample", agg.on_sample)

    t0 = time.perf_counter_ns()
    for i in range(ITERS):
        bus.publish("bench.sample", Sample((31 * (seed + i) + 7) % 1000))
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(f"check=iters:{ITERS},count:{agg.count},sum:{agg.sum},min:{agg.min},max:{agg.max}")


main()
