/*
 * bus_dispatch_heap_payload (C sibling)
 * Shape: one subscriber registered on subject "bench.beat.heap" before t0, and the label
 * string "tick" built on the heap at run time before t0; timed: 50,000 publishes of
 * Beat{n: S + i, label} (S = HALEBENCH_SEED). Each publish looks the subject up by its string
 * key, makes the subscriber's own copy of the payload (a fresh malloc'd copy of the label
 * bytes) and calls the handler through a function pointer; the handler counts and frees its
 * copy (it owns it).
 * Fairness: same bus as bus_dispatch: a 16-slot FNV-1a open-addressed table with an
 * __attribute__((noinline)) lookup that hashes the subject every publish; subject and label
 * pointers pass through asm barriers so nothing is precomputed. One malloc + memcpy + free of
 * the label per publish, as in the Rust (String clone) and Go (strings.Clone) siblings.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ITERS 50000LL
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
    char *label;
    size_t label_len;
} Beat;

/* The handler receives ownership of *msg's heap fields. */
typedef void (*BeatHandler)(void *ctx, Beat *msg);

typedef struct {
    const char *key; /* NULL = empty slot */
    size_t key_len;
    uint64_t hash;
    BeatHandler fn;
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

static int bus_subscribe(Bus *bus, const char *subject, BeatHandler fn, void *ctx) {
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

/* Deliver a deep copy of *msg: the subscriber gets its own label bytes. */
static void bus_publish(Bus *bus, const char *subject, const Beat *msg) {
    BusSlot *slot = bus_lookup(bus, subject);
    if (slot == NULL) return;
    Beat copy;
    copy.n = msg->n;
    copy.label_len = msg->label_len;
    copy.label = malloc(msg->label_len + 1);
    if (copy.label == NULL) abort();
    memcpy(copy.label, msg->label, msg->label_len + 1);
    slot->fn(slot->ctx, &copy);
}

typedef struct {
    int64_t count;
} Counter;

__attribute__((noinline)) static void on_beat(void *ctx, Beat *msg) {
    Counter *c = ctx;
    c->count += 1;
    free(msg->label);
}

int main(void) {
    int64_t s = seed_from_env();

    Bus *bus = calloc(1, sizeof *bus);
    Counter *counter = calloc(1, sizeof *counter);
    if (bus == NULL || counter == NULL) abort();
    if (bus_subscribe(bus, "bench.beat.heap", on_beat, counter) != 0) abort();
    __asm__ volatile("" : "+r"(bus) : : "memory");

    const char label_src[] = "tick";
    char *label = malloc(sizeof label_src);
    if (label == NULL) abort();
    memcpy(label, label_src, sizeof label_src);
    __asm__ volatile("" : "+r"(label) : : "memory");
    size_t label_len = strlen(label);

    int64_t t0 = mono_ns();
    for (int64_t i = 0; i < ITERS; i++) {
        const char *subject = "bench.beat.heap";
        __asm__ volatile("" : "+r"(subject));
        Beat msg = {.n = s + i, .label = label, .label_len = label_len};
        bus_publish(bus, subject, &msg);
    }
    __asm__ volatile("" : : "r"(counter) : "memory");
    int64_t t1 = mono_ns();

    printf("elapsed_ns=%lld\n", (long long)(t1 - t0));
    printf("check=iters:%lld,count:%lld\n", (long long)ITERS, (long long)counter->count);
    free(label);
    free(counter);
    free(bus);
    return 0;
}
