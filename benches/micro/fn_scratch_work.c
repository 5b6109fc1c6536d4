/* fn_scratch_work (C sibling)
 *
 * Workload: 100 calls (c = 0..99) of a noinline f(c, S) that builds a local growable vector
 * of 1,000 ints (j + S for j in 0..1000, pushed one by one into an empty vector with no
 * capacity hint), sums it by index, frees it and returns the sum; the caller adds it to total.
 * All 100 calls are timed.
 * Fairness: S = HALEBENCH_SEED (run time). The function is __attribute__((noinline)) and its S
 * argument passes an empty asm barrier at every call, so the 100 calls cannot be merged or
 * hoisted; an asm barrier on the filled buffer keeps the allocation and the stores real (no
 * malloc elision, no closed-form sum). The sum loop may still vectorise.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CALLS 100
#define ITEMS 1000

typedef struct {
    int64_t *data;
    size_t len;
    size_t cap;
} Vec;

static int64_t read_seed(void) {
    const char *s = getenv("HALEBENCH_SEED");
    if (s == NULL || *s == '\0') return 0;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < 0 || v >= 2147483648LL) {
        fprintf(stderr, "HALEBENCH_SEED must be an integer in [0, 2^31): %s\n", s);
        exit(2);
    }
    return (int64_t)v;
}

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void vec_push(Vec *v, int64_t x) {
    if (v->len == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 4;
        int64_t *p = realloc(v->data, cap * sizeof *p);
        if (p == NULL) {
            perror("realloc");
            exit(1);
        }
        v->data = p;
        v->cap = cap;
    }
    v->data[v->len++] = x;
}

__attribute__((noinline)) static int64_t scratch_work(int64_t c, int64_t seed) {
    (void)c; /* the call index, as in the Hale version; the body does not depend on it */
    Vec v = {NULL, 0, 0};
    for (int64_t j = 0; j < ITEMS; j++) vec_push(&v, j + seed);
    __asm__ volatile("" : : "r"(v.data) : "memory");
    int64_t sum = 0;
    for (size_t j = 0; j < v.len; j++) sum += v.data[j];
    free(v.data);
    return sum;
}

int main(void) {
    int64_t seed = read_seed();

    int64_t t0 = now_ns();
    int64_t total = 0;
    for (int c = 0; c < CALLS; c++) {
        int64_t arg = seed;
        __asm__ volatile("" : "+r"(arg));
        total += scratch_work(c, arg);
    }
    int64_t t1 = now_ns();

    printf("elapsed_ns=%" PRId64 "\n", t1 - t0);
    printf("check=calls:%d,total:%" PRId64 "\n", CALLS, total);
    return 0;
}
