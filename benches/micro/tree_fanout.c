/* tree_fanout (C sibling)
 *
 * Workload: a coordinator (heap) with K = 20 worker children (heap, created by the parent and
 * held in its child array). For each child the parent's accept calls the child's noinline
 * compute(), which sums (j + S) for j in 0..M, M = 2,000, and adds the result to the parent's
 * total. Timed: building the tree, the 20 compute/accept steps, and freeing the tree.
 * NOT COMPARABLE as a ratio: the optimiser (clang/LLVM and gcc alike) may turn compute()'s loop
 * into a closed form, so C does O(1) work per child where interpreted / JIT siblings loop
 * 2,000 times. compute() stays a real call (__attribute__((noinline))) and S = HALEBENCH_SEED
 * is a run-time value, so the total itself cannot fold to a constant.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define K 20
#define M 2000

typedef struct {
    int64_t base;
    int64_t m;
} Worker;

typedef struct {
    int64_t total;
    Worker *children[K];
} Coord;

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

static void *xmalloc(size_t n) {
    void *p = malloc(n);
    if (p == NULL) {
        perror("malloc");
        exit(1);
    }
    return p;
}

__attribute__((noinline)) static int64_t worker_compute(const Worker *w) {
    int64_t acc = 0;
    for (int64_t j = 0; j < w->m; j++) acc += j + w->base;
    return acc;
}

static void coord_accept(Coord *c, const Worker *w) {
    c->total += worker_compute(w);
}

int main(void) {
    int64_t seed = read_seed();

    int64_t t0 = now_ns();
    Coord *coord = xmalloc(sizeof *coord);
    coord->total = 0;
    for (int k = 0; k < K; k++) {
        Worker *w = xmalloc(sizeof *w);
        w->base = seed;
        w->m = M;
        coord->children[k] = w;
    }
    for (int k = 0; k < K; k++) coord_accept(coord, coord->children[k]);
    int64_t total = coord->total;
    for (int k = 0; k < K; k++) free(coord->children[k]);
    free(coord);
    int64_t t1 = now_ns();

    printf("elapsed_ns=%" PRId64 "\n", t1 - t0);
    printf("check=k:%d,m:%d,total:%" PRId64 "\n", K, M, total);
    return 0;
}
