/*
 * locus_instantiation (C sibling)
 * Shape: 100,000 times: malloc a one-field object {v = S + i} (S = HALEBENCH_SEED), read v
 * through a noinline accessor, sink ^= v, free the object. Only the loop is timed.
 * Fairness: the accessor is __attribute__((noinline)) with an empty volatile asm barrier, and
 * the object pointer passes through an asm barrier, so clang can neither inline the read nor
 * elide the malloc/free pair: every iteration is a real heap allocation (glibc's per-thread
 * cache makes the same-size malloc/free cycle cheap). Values come from S.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ITERS 100000LL

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

typedef struct {
    int64_t v;
} Obj;

__attribute__((noinline)) static int64_t obj_get(const Obj *o) {
    __asm__ volatile("");
    return o->v;
}

int main(void) {
    int64_t s = seed_from_env();
    int64_t sink = 0;

    int64_t t0 = mono_ns();
    for (int64_t i = 0; i < ITERS; i++) {
        Obj *o = malloc(sizeof *o);
        if (o == NULL) abort();
        o->v = s + i;
        __asm__ volatile("" : : "r"(o) : "memory");
        sink ^= obj_get(o);
        free(o);
    }
    __asm__ volatile("" : "+r"(sink) : : "memory");
    int64_t t1 = mono_ns();

    printf("elapsed_ns=%lld\n", (long long)(t1 - t0));
    printf("check=iters:%lld,sink:%lld\n", (long long)ITERS, (long long)sink);
    return 0;
}
