# pipeline_3stage (Python sibling)
#
# Workload: one thread, three stages linked by two subjects, each a FIFO queue
# (collections.deque) with one subscriber: Source publishes N = 50,000 Event(value = S+i) on the
# "event" queue; Filter, the "event" subscriber, keeps even values and publishes
# Filtered(value) on the "filtered" queue; Sink, the "filtered" subscriber, counts and sums.
# Delivery is a scheduler loop that, while either queue is non-empty, hands one message from
# each non-empty queue to its subscriber (a bound method stored on the subject). Source
# publishes all N before the scheduler runs. Timed: from the first publish until both queues
# are drained.
# Fairness: S = HALEBENCH_SEED (run time). Messages are small __slots__ objects allocated at
# publish, like the typed messages of the other siblings.
import os
import sys
import time
from collections import deque

N = 50000


def read_seed():
    s = os.environ.get("HALEBENCH_SEED", "")
    if s == "":
        return 0
    if not (s.isascii() and s.isdigit()) or int(s) >= 2**31:
        sys.stderr.write(f"HALEBENCH_SEED must be an integer in [0, 2^31): {s}\n")
        sys.exit(2)
    return int(s)


class Event:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Filtered:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Subject:
    __slots__ = ("q", "deliver")

    def __init__(self, deliver):
        self.q = deque()
        self.deliver = deliver


class Pipeline:
    def __init__(self):
        self.filter_passed = 0
        self.sink_count = 0
        self.sink_sum = 0
        self.events = Subject(self.filter_on_event)
        self.filtered = Subject(self.sink_on_filtered)

    def filter_on_event(self, e):
        if e.value % 2 == 0:
            self.filter_passed += 1
            self.filtered.q.append(Filtered(e.value))

    def sink_on_filtered(self, f):
        self.sink_count += 1
        self.sink_sum += f.value

    def run_until_drained(self):
        events = self.events
        filtered = self.filtered
        while True:
            delivered = False
            if events.q:
                events.deliver(events.q.popleft())
                delivered = True
            if filtered.q:
                filtered.deliver(filtered.q.popleft())
                delivered = True
            if not delivered:
                return


def main():
    seed = read_seed()
    p = Pipeline()

    t0 = time.perf_counter_ns()
    q = p.events.q
    for i in range(N):
        q.append(Event(seed + i))
    p.run_until_drained()
    t1 = time.perf_counter_ns()

    print(f"elapsed_ns={t1 - t0}")
    print(
        f"check=n:{N},filter_passed:{p.filter_passed},"
        f"sink_count:{p.sink_count},sink_sum:{p.sink_sum}"
    )


main()
