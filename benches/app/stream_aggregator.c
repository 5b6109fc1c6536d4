/* stream_aggregator (C sibling)
 *
 * Workload: an Aggregator subscribed to "bench.sample" before t0 (one entry in a small string-keyed
 * router: an FNV-1a open-addressing table). Timed: 200,000 publishes of
 * Sample{value: (31*(S+i)+7) mod 1000}; each publish hashes and looks up the subject string
 * (noinline lookup), then calls the subscriber through its function pointer, which keeps count,
 * sum, min and max.
 * Fairness: S = HALEBENCH_SEED (run time) so the values cannot fold. The subject pointer passes
 * an empty asm barrier before every publish so the hash is computed each time, as in the other
 * siblings' string-keyed tables; the lookup is __attribute__((noinline)). Delivery is a direct
 * synchronous call (no queue), the same shape every sibling uses.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ITERS 200000
#define ROUTER_SLOTS 16 /* power of two */

typedef struct {
    int64_t value;
} Sample;

typedef void (*Handler)(void *ctx, const Sample *s);

typedef struct {
    const char *subject; /* NULL = empty slot */
    uint64_t hash;
    Handler fn;
    void *ctx;
} Route;

typedef struct {
    Route slots[ROUTER_SLOTS];
} Router;

typedef struct {
    int64_t count;
    int64_t sum;
    int64_t min;
    int64_t max;
} Aggregator;

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

static uint64_t fnv1a(const char *s) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h;
}

static void router_subscribe(Router *r, const char *subject, Handler fn, void *ctx) {
    uint64_t h = fnv1a(subject);
    size_t i = (size_t)h & (ROUTER_SLOTS - 1);
    while (r->slots[i].subject != NULL) i = (i + 1) & (ROUTER_SLOTS - 1);
    r->slots[i] = (Route){subject, h, fn, ctx};
}

__attribute__((noinline)) static Route *router_lookup(Router *r, const char *subject) {
    uint64_t h = fnv1a(subject);
    size_t i = (size_t)h & (ROUTER_SLOTS - 1);
    while (r->slots[i].subject != NULL) {
        if (r->slots[i].hash == h && strcmp(r->slots[i].subject, subject) == 0) return &r->slots[i];
        i = (i + 1) & (ROUTER_SLOTS - 1);
    }
    return NULL;
}

static void publish(Router *r, const char *subject, const Sample *s) {
    Route *route = router_lookup(r, subject);
    if (route != NULL) route->fn(route->ctx, s);
}

static void aggregator_on_sample(void *ctx, const Sample *s) {
    Aggregator *a = ctx;
    a->count++;
    a->sum += s->value;
    if (s->value < a->min) a->min = s->value;
    if (s->value > a->max) a->max = s->value;
}

int main(void) {
    int64_t seed = read_seed();
    static Router router;
    static char subject_storage[] = "bench.sample";
    Aggregator agg = {0, 0, INT64_MAX, INT64_MIN};
    router_subscribe(&router, subject_storage, aggregator_on_sample, &agg);

    int64_t t0 = now_ns();
    for (int64_t i = 0; i < ITERS; i++) {
        Sample s = {(31 * (seed + i) + 7) % 1000};
        const char *subject = "bench.sample";
        __asm__ volatile("" : "+r"(subject));
        publish(&router, subject, &s);
    }
    int64_t t1 = now_ns();

    printf("elapsed_ns=%" PRId64 "\n", t1 - t0);
    printf("check=iters:%d,count:%" PRId64 ",sum:%" PRId64 ",min:%" PRId64 ",max:%" PRId64 "\n", ITERS,
           agg.count, agg.sum, agg.min, agg.max);
    return 0;
}
