# Test bench: counts to 1,000,000 from the seed, like count.c.
import os, time
acc = int(os.environ.get("HALEBENCH_SEED", "0"))
n = 0
t0 = time.perf_counter_ns()
for i in range(1000000):
    acc ^= i
    n += 1
t1 = time.perf_counter_ns()
print(f"elapsed_ns={t1 - t0}")
print(f"check=iters:{n},acc:{acc}")
