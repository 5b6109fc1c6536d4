/*
 * form_hashmap_set (C sibling)
 * Shape: an empty hash map (int64 key -> Entry{id, v}) made before t0; timed: 1,000,000
 * inserts with key id = S + i and value Entry{id: S + i, v: i + 1} (S = HALEBENCH_SEED).
 * Fairness: a hand-written open-addressing table, power-of-two capacity (16 at start), linear
 * probing, grows (doubles and rehashes) when an insert would push the load factor past 0.7.
 * Slots hold {key, Entry} (24 bytes); occupancy lives in a separate byte array so probes
 * scan a compact array.
 * Keys are mixed with the murmur3 64-bit finaliser so consecutive keys do not get an
 * artificially collision-free layout. An insert of an existing key overwrites its value. The
 * table passes through an asm barrier after the loop so the stores cannot be dropped.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 1000000LL

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
    int64_t id;
    int64_t v;
} Entry;

typedef struct {
    int64_t key;
    Entry val;
} Slot;

typedef struct {
    Slot *slots;
    uint8_t *used;
    size_t cap; /* power of two */
    size_t len;
} Map;

static inline uint64_t mix64(int64_t key) {
    uint64_t x = (uint64_t)key;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static void map_init(Map *m, size_t cap) {
    m->slots = malloc(cap * sizeof *m->slots);
    m->used = calloc(cap, 1);
    if (m->slots == NULL || m->used == NULL) abort();
    m->cap = cap;
    m->len = 0;
}

__attribute__((noinline)) static void map_grow(Map *m) {
    Slot *old = m->slots;
    uint8_t *old_used = m->used;
    size_t old_cap = m->cap;
    size_t cap = old_cap * 2;
    Slot *slots = malloc(cap * sizeof *slots);
    uint8_t *used = calloc(cap, 1);
    if (slots == NULL || used == NULL) abort();
    size_t mask = cap - 1;
    for (size_t i = 0; i < old_cap; i++) {
        if (!old_used[i]) continue;
        size_t idx = (size_t)mix64(old[i].key) & mask;
        while (used[idx]) idx = (idx + 1) & mask;
        slots[idx] = old[i];
        used[idx] = 1;
    }
    free(old);
    free(old_used);
    m->slots = slots;
    m->used = used;
    m->cap = cap;
}

static inline void map_set(Map *m, int64_t key, Entry val) {
    if ((m->len + 1) * 10 > m->cap * 7) map_grow(m);
    size_t mask = m->cap - 1;
    size_t idx = (size_t)mix64(key) & mask;
    for (;;) {
        Slot *slot = &m->slots[idx];
        if (!m->used[idx]) {
            slot->key = key;
            slot->val = val;
            m->used[idx] = 1;
            m->len++;
            return;
        }
        if (slot->key == key) {
            slot->val = val;
            return;
        }
        idx = (idx + 1) & mask;
    }
}

int main(void) {
    int64_t s = seed_from_env();
    Map m;
    map_init(&m, 16);

    int64_t t0 = mono_ns();
    for (int64_t i = 0; i < N; i++) {
        int64_t id = s + i;
        Entry e = {.id = id, .v = i + 1};
        map_set(&m, id, e);
    }
    __asm__ volatile("" : : "r"(m.slots), "r"(m.used), "r"(m.len) : "memory");
    int64_t t1 = mono_ns();

    printf("elapsed_ns=%lld\n", (long long)(t1 - t0));
    printf("check=n:%lld,len:%lld\n", (long long)N, (long long)m.len);
    free(m.slots);
    free(m.used);
    return 0;
}
