/*
 * fn_call (C sibling)
 * Shape: 10,000,000 calls of step(x) = x*2 + 1 with x = i + S (S = HALEBENCH_SEED), acc = the
 * result of each call; only the call loop is timed (CLOCK_MONOTONIC).
 * Fairness: step is __attribute__((noinline)) and holds an empty volatile asm barrier, so clang
 * can neither inline it nor treat it as pure and drop the calls whose result is overwritten:
 * every iteration is a real call. Arguments come from S so nothing folds to a constant.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ITERS 10000000LL

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

__attribute__((noinline)) static int64_t step(int64_t x) {
    __asm__ volatile("");
    return x * 2 + 1;
}

int main(void) {
    int64_t s = seed_from_env();
    int64_t acc = 0;

    int64_t t0 = mono_ns();
    for (int64_t i = 0; i < ITERS; i++) {
        acc = step(i + s);
    }
    __asm__ volatile("" : "+r"(acc) : : "memory");
    int64_t t1 = mono_ns();

    printf("elapsed_ns=%lld\n", (long long)(t1 - t0));
    printf("check=iters:%lld,acc:%lld\n", (long long)ITERS, (long long)acc);
    return 0;
}
