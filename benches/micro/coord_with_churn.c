/* coord_with_churn (C sibling)
 *
 * Workload: a parent Coord (heap) creates and dissolves K = 2,000 children one after another:
 * each child is a heap Worker{id: S+i} (malloc), handed to the parent (accept), read by a
 * noinline hook that adds its id to the parent's sink, then released (free) before the next
 * child is made. Timed: the whole parent lifetime, from its allocation to its free.
 * Fairness: S = HALEBENCH_SEED (run time) so the sink cannot fold. The hook is
 * __attribute__((noinline)) with an empty asm barrier taking the child pointer, so the malloc /
 * free pair cannot be elided. malloc's free list recycles the same block: that is this
 * language's natural churn path, not removed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define K 2000

typedef struct {
    int64_t id;
} Worker;

typedef struct {
    int64_t sink;
    Worker *live;
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

__attribute__((noinline)) static void on_accept(Coord *c, Worker *w) {
    __asm__ volatile("" : : "r"(w) : "memory");
    c->sink += w->id;
}

static void coord_accept(Coord *c, Worker *w) {
    c->live = w;
    on_accept(c, w);
}

static void coord_release(Coord *c) {
    free(c->live);
    c->live = NULL;
}

int main(void) {
    int64_t seed = read_seed();

    int64_t t0 = now_ns();
    Coord *coord = xmalloc(sizeof *coord);
    coord->sink = 0;
    coord->live = NULL;
    for (int64_t i = 0; i < K; i++) {
        Worker *w = xmalloc(sizeof *w);
        w->id = seed + i;
        coord_accept(coord, w);
        coord_release(coord);
    }
    int64_t sink = coord->sink;
    free(coord);
    int64_t t1 = now_ns();

    printf("elapsed_ns=%" PRId64 "\n", t1 - t0);
    printf("check=k:%d,sink:%" PRId64 "\n", K, sink);
    return 0;
}
