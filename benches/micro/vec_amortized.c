/* vec_amortized (C sibling)
 *
 * Workload: n = 200,000. Timed region: make an empty growable vector (no capacity hint),
 * push S+i for i in 0..n, then sum every element by index. Everything between the two clock
 * reads is the amortized cycle; the buffer is freed after t1 (GC'd languages free later too).
 * Fairness: S = HALEBENCH_SEED (run time) so the sum cannot fold to a constant. Growth is a
 * doubling realloc, the usual shape of Go append / Rust Vec. An empty asm barrier on the buffer
 * after the pushes stops the compiler from dropping the stores and summing in closed form; the
 * summing loop itself is free to vectorise (that is plain C's advantage, not removed).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 200000

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

int main(void) {
    int64_t seed = read_seed();

    int64_t t0 = now_ns();
    Vec v = {NULL, 0, 0};
    for (int64_t i = 0; i < N; i++) vec_push(&v, seed + i);
    __asm__ volatile("" : : "r"(v.data) : "memory");
    int64_t sum = 0;
    for (size_t i = 0; i < v.len; i++) sum += v.data[i];
    int64_t t1 = now_ns();

    size_t len = v.len;
    free(v.data);
    if (len != N) {
        fprintf(stderr, "vector length %zu, want %d\n", len, N);
        return 1;
    }
    printf("elapsed_ns=%" PRId64 "\n", t1 - t0);
    printf("check=n:%d,sum:%" PRId64 "\n", N, sum);
    return 0;
}
