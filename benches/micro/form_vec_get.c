/*
 * form_vec_get (C sibling)
 * Shape: a growable int64 vector filled with v[i] = S + i for i < 200,000 (S = HALEBENCH_SEED)
 * outside the timer; timed: acc ^= v[i] for every index 0..len-1, each read through a
 * bounds-checked accessor (abort when i >= len).
 * Fairness: C has no bounds checks, so the accessor adds one explicitly; with the loop running
 * to v.len clang proves the check redundant and removes it, as Rust and Go do for the same
 * loop shape (and as Hale does for `for j in 0..v.len()`); the XOR fold then vectorises.
 * The filled buffer passes through an asm barrier so its contents are not known at compile
 * time.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 200000LL

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

static inline int64_t vec_get(const VecI64 *v, size_t i) {
    if (i >= v->len) {
        fprintf(stderr, "index %zu out of bounds (len %zu)\n", i, v->len);
        abort();
    }
    return v->data[i];
}

int main(void) {
    int64_t s = seed_from_env();
    VecI64 v = {NULL, 0, 0};
    for (int64_t i = 0; i < N; i++) vec_push(&v, s + i);
    __asm__ volatile("" : "+r"(v.data), "+r"(v.len) : : "memory");

    int64_t acc = 0;
    int64_t t0 = mono_ns();
    for (size_t i = 0; i < v.len; i++) {
        acc ^= vec_get(&v, i);
    }
    __asm__ volatile("" : "+r"(acc) : : "memory");
    int64_t t1 = mono_ns();

    printf("elapsed_ns=%lld\n", (long long)(t1 - t0));
    printf("check=iters:%lld,acc:%lld\n", (long long)v.len, (long long)acc);
    free(v.data);
    return 0;
}
