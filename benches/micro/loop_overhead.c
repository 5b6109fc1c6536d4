/*
 * loop_overhead (C sibling)
 * Shape: acc starts at the run-time seed S (HALEBENCH_SEED); 100,000,000 iterations of
 * acc ^= i for i = 0..N-1. Only the loop is timed (CLOCK_MONOTONIC).
 * Fairness: acc comes from S so nothing folds to a constant; an empty asm barrier pins the
 * finished acc before the second clock read so the loop cannot drift out of the timed region.
 * clang -O3 -march=native vectorises this reduction, so it measures vector-XOR throughput
 * rather than scalar loop overhead (the same is expected of every LLVM-backed sibling).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ITERS 100000000LL

static int64_t seed_from_env(void) {
    const char *s = getenv("HALEBENCH_SEED");
    if (s == NULL || *s == '\0') return 0;
    char *end = NULL;
    long long v = strtoll(s, &end, 10);
    if (*end != '\0' || v < 0 || v >= 2147483648LL) {
        fprintf(stderr, "invalid HALEBENCH_SEED: %s\n", s);
        exit(2);
    }
    return (int64_t)v;
}

static int64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + (int64_t)ts.tv_nsec;
}

int main(void) {
    int64_t acc = seed_from_env();

    int64_t t0 = mono_ns();
    for (int64_t i = 0; i < ITERS; i++) {
        acc ^= i;
    }
    __asm__ volatile("" : "+r"(acc) : : "memory");
    int64_t t1 = mono_ns();

    printf("elapsed_ns=%lld\n", (long long)(t1 - t0));
    printf("check=iters:%lld,acc:%lld\n", (long long)ITERS, (long long)acc);
    return 0;
}
