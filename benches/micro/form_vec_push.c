/*
 * form_vec_push (C sibling)
 * Shape: an empty growable vector of int64 (no capacity) made before t0; timed: 500,000
 * pushes of S + i (S = HALEBENCH_SEED).
 * Fairness: a plain {data, len, cap} vector that doubles its capacity with realloc when full
 * (first allocation 8 elements), like Vec/append/list growth in the other siblings; the
 * buffer passes through an asm barrier after the loop so the stores cannot be dropped.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ITERS 500000LL

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
    int64_t *data;
    size_t len;
    size_t cap;
} VecI64;

__attribute__((noinline)) static void vec_grow(VecI64 *v) {
    size_t cap = v->cap ? v->cap * 2 : 8;
    int64_t *p = realloc(v->data, cap * sizeof *p);
    if (p == NULL) abort();
    v->data = p;
    v->cap = cap;
}

static inline void vec_push(VecI64 *v, int64_t x) {
    if (v->len == v->cap) vec_grow(v);
    v->data[v->len++] = x;
}

int main(void) {
    int64_t s = seed_from_env();
    VecI64 v = {NULL, 0, 0};

    int64_t t0 = mono_ns();
    for (int64_t i = 0; i < ITERS; i++) {
        vec_push(&v, s + i);
    }
    __asm__ volatile("" : : "r"(v.data), "r"(v.len) : "memory");
    int64_t t1 = mono_ns();

    printf("elapsed_ns=%lld\n", (long long)(t1 - t0));
    printf("check=iters:%lld,len:%lld\n", (long long)ITERS, (long long)v.len);
    free(v.data);
    return 0;
}
