/*
 * bus_dispatch (C sibling)
 * Shape: one subscriber registered on subject "bench.tick" before t0; timed: 100,000
 * publishes of Tick{n: S + i} (S = HALEBENCH_SEED). Each publish looks the subject up by its
 * string key in the bus table, then calls the subscriber's handler through a function
 * pointer; the handler counts messages.
 * Fairness: the bus is a small open-addressed table (16 slots, linear probing) keyed by the
 * FNV-1a hash of the subject; the lookup is __attribute__((noinline)), hashes the whole
 * subject string on every publish and compares the key bytes, and the subject pointer passes
 * through an asm barrier each publish so clang cannot precompute the hash or the slot. The
 * handler is reached only through the stored pointer (no devirtualisation).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ITERS 100000LL
#define BUS_SLOTS 16u

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
    int64_t n;
} Tick;

typedef void (*TickHandler)(void *ctx, const Tick *msg);

typedef struct {
    const char *key; /* NULL = empty slot */
    size_t key_len;
    uint64_t hash;
    TickHandler fn;
    void *ctx;
} BusSlot;

typedef struct {
    BusSlot slots[BUS_SLOTS];
} Bus;

/* FNV-1a over a NUL-terminated string; also reports its length. */
static uint64_t fnv1a(const char *s, size_t *len_out) {
    uint64_t h = 14695981039346656037ULL;
    size_t n = 0;
    for (; s[n] != '\0'; n++) {
        h ^= (uint8_t)s[n];
        h *= 1099511628211ULL;
    }
    *len_out = n;
    return h;
}

static int bus_subscribe(Bus *bus, const char *subject, TickHandler fn, void *ctx) {
    size_t len;
    uint64_t h = fnv1a(subject, &len);
    size_t idx = (size_t)(h & (BUS_SLOTS - 1));
    for (unsigned probe = 0; probe < BUS_SLOTS; probe++) {
        BusSlot *slot = &bus->slots[idx];
        if (slot->key == NULL) {
            slot->key = subject;
            slot->key_len = len;
            slot->hash = h;
            slot->fn = fn;
            slot->ctx = ctx;
            return 0;
        }
        idx = (idx + 1) & (BUS_SLOTS - 1);
    }
    return -1;
}

__attribute__((noinline)) static BusSlot *bus_lookup(Bus *bus, const char *subject) {
    size_t len;
    uint64_t h = fnv1a(subject, &len);
    size_t idx = (size_t)(h & (BUS_SLOTS - 1));
    for (unsigned probe = 0; probe < BUS_SLOTS; probe++) {
        BusSlot *slot = &bus->slots[idx];
        if (slot->key == NULL) return NULL;
        if (slot->hash == h && slot->key_len == len && memcmp(slot->key, subject, len) == 0) {
            return slot;
        }
        idx = (idx + 1) & (BUS_SLOTS - 1);
    }
    return NULL;
}

static void bus_publish(Bus *bus, const char *subject, const Tick *msg) {
    BusSlot *slot = bus_lookup(bus, subject);
    if (slot != NULL) slot->fn(slot->ctx, msg);
}

typedef struct {
    int64_t count;
} Counter;

__attribute__((noinline)) static void on_tick(void *ctx, const Tick *msg) {
    (void)msg;
    Counter *c = ctx;
    c->count += 1;
}

int main(void) {
    int64_t s = seed_from_env();

    Bus *bus = calloc(1, sizeof *bus);
    Counter *counter = calloc(1, sizeof *counter);
    if (bus == NULL || counter == NULL) abort();
    if (bus_subscribe(bus, "bench.tick", on_tick, counter) != 0) abort();
    __asm__ volatile("" : "+r"(bus) : : "memory");

    int64_t t0 = mono_ns();
    for (int64_t i = 0; i < ITERS; i++) {
        const char *subject = "bench.tick";
        __asm__ volatile("" : "+r"(subject));
        Tick msg = {.n = s + i};
        bus_publish(bus, subject, &msg);
    }
    __asm__ volatile("" : : "r"(counter) : "memory");
    int64_t t1 = mono_ns();

    printf("elapsed_ns=%lld\n", (long long)(t1 - t0));
    printf("check=iters:%lld,count:%lld\n", (long long)ITERS, (long long)counter->count);
    free(counter);
    free(bus);
    return 0;
}
