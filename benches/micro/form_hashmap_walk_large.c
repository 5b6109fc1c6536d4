/* form_hashmap_walk_large (C sibling)
 *
 * Workload: a hash map id -> Entry{id, val} filled outside the timer with 100,000 entries
 * Entry{id: S+i, val: 3i}. Timed: one full iteration over the map summing val + (id - id).
 * The map is this file's own open-addressing table (power-of-two slots, linear probing,
 * Fibonacci hashing, grows x2 past load 0.7, so 262,144 slots hold the 100,000 entries);
 * iteration walks every slot and skips empty ones.
 * Fairness: ids come from S = HALEBENCH_SEED (run time), so nothing is known at compile time.
 * The compiler folds (id - id) to zero, so only val is loaded from each entry (the walk still
 * visits every slot); an empty asm barrier on the table before t0 keeps the fill from being
 * folded into the walk.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 100000
#define EMPTY INT64_MIN

typedef struct {
    int64_t id;
    int64_t val;
} Entry;

typedef struct {
    int64_t key; /* EMPTY = free slot */
    Entry e;
} Slot;

typedef struct {
    Slot *slots;
    size_t cap; /* power of two */
    unsigned shift; /* 64 - log2(cap) */
    size_t len;
} Map;

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

static void map_alloc(Map *m, size_t cap, unsigned log2cap) {
    m->slots = malloc(cap * sizeof *m->slots);
    if (m->slots == NULL) {
        perror("malloc");
        exit(1);
    }
    for (size_t i = 0; i < cap; i++) m->slots[i].key = EMPTY;
    m->cap = cap;
    m->shift = 64 - log2cap;
    m->len = 0;
}

static size_t map_home(const Map *m, int64_t key) {
    return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ULL) >> m->shift);
}

static void map_put_nogrow(Map *m, int64_t key, Entry e) {
    size_t i = map_home(m, key);
    while (m->slots[i].key != EMPTY && m->slots[i].key != key) i = (i + 1) & (m->cap - 1);
    if (m->slots[i].key == EMPTY) m->len++;
    m->slots[i].key = key;
    m->slots[i].e = e;
}

static void map_put(Map *m, int64_t key, Entry e) {
    if ((m->len + 1) * 10 > m->cap * 7) {
        Map bigger;
        map_alloc(&bigger, m->cap * 2, 64 - m->shift + 1);
        for (size_t i = 0; i < m->cap; i++)
            if (m->slots[i].key != EMPTY) map_put_nogrow(&bigger, m->slots[i].key, m->slots[i].e);
        free(m->slots);
        *m = bigger;
    }
    map_put_nogrow(m, key, e);
}

int main(void) {
    int64_t seed = read_seed();
    Map m;
    map_alloc(&m, 16, 4);
    for (int64_t i = 0; i < N; i++) map_put(&m, seed + i, (Entry){seed + i, 3 * i});
    __asm__ volatile("" : : "r"(m.slots) : "memory");

    int64_t t0 = now_ns();
    int64_t sum = 0;
    for (size_t i = 0; i < m.cap; i++) {
        const Slot *s = &m.slots[i];
        if (s->key != EMPTY) sum += s->e.val + (s->e.id - s->e.id);
    }
    int64_t t1 = now_ns();

    printf("elapsed_ns=%" PRId64 "\n", t1 - t0);
    printf("check=n:%d,len:%zu,sum:%" PRId64 "\n", N, m.len, sum);
    free(m.slots);
    return 0;
}
