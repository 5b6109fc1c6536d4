/*
 * json_parse (C sibling)
 * Shape: the text {"sym": "BTCUSD", "bid": 50000, "ask": 50010, "bidsz": 12, "asksz": 8,
 * "ts": 1700000000000, "seq": S} (S = HALEBENCH_SEED) is built with snprintf before t0;
 * timed: 200,000 parses of it into Quote{sym, bid, ask, bidsz, asksz, ts, seq}, adding
 * bid + ask + seq to total each time.
 * Fairness: C's standard library has no JSON parser, so this is a hand-written parser for
 * exactly this flat object (string and integer values, no escapes, no floats, no nesting;
 * keys matched against the seven Quote fields, all seven required). It still scans every
 * byte, checks the syntax and copies sym into a fresh malloc'd string each parse (freed after
 * use), but being schema-specialised it FLATTERS C against the general-purpose parsers of
 * the Go, JS and Python siblings. parse_quote is __attribute__((noinline)) and the text
 * pointer passes through an asm barrier every iteration so no parse is hoisted or folded.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ITERS 200000LL

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
    char *sym;
    int64_t bid;
    int64_t ask;
    int64_t bidsz;
    int64_t asksz;
    int64_t ts;
    int64_t seq;
} Quote;

typedef struct {
    const char *p;
    const char *end;
} Cursor;

static inline void skip_ws(Cursor *c) {
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) {
        c->p++;
    }
}

static inline int expect(Cursor *c, char ch) {
    skip_ws(c);
    if (c->p >= c->end || *c->p != ch) return -1;
    c->p++;
    return 0;
}

/* A JSON string without escapes; returns its bytes (between the quotes) in place. */
static inline int parse_string(Cursor *c, const char **start, size_t *len) {
    if (expect(c, '"') != 0) return -1;
    const char *s = c->p;
    while (c->p < c->end && *c->p != '"') {
        unsigned char ch = (unsigned char)*c->p;
        if (ch == '\\' || ch < 0x20) return -1;
        c->p++;
    }
    if (c->p >= c->end) return -1;
    *start = s;
    *len = (size_t)(c->p - s);
    c->p++;
    return 0;
}

/* A JSON integer (optional minus, no leading zeros, no fraction/exponent), range-checked. */
static inline int parse_int(Cursor *c, int64_t *out) {
    skip_ws(c);
    int neg = 0;
    if (c->p < c->end && *c->p == '-') {
        neg = 1;
        c->p++;
    }
    if (c->p >= c->end || *c->p < '0' || *c->p > '9') return -1;
    if (*c->p == '0' && c->p + 1 < c->end && c->p[1] >= '0' && c->p[1] <= '9') return -1;
    uint64_t v = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        uint64_t d = (uint64_t)(*c->p - '0');
        if (v > (UINT64_C(9223372036854775807) - d) / 10) return -1;
        v = v * 10 + d;
        c->p++;
    }
    if (c->p < c->end && (*c->p == '.' || *c->p == 'e' || *c->p == 'E')) return -1;
    *out = neg ? -(int64_t)v : (int64_t)v;
    return 0;
}

static inline int key_is(const char *k, size_t n, const char *name) {
    size_t m = strlen(name);
    return n == m && memcmp(k, name, n) == 0;
}

/* Parses text into *q; on success q->sym is a fresh heap string owned by the caller. */
__attribute__((noinline)) static int parse_quote(const char *text, size_t len, Quote *q) {
    Cursor c = {text, text + len};
    const char *sym = NULL;
    size_t sym_len = 0;
    unsigned seen = 0;
    if (expect(&c, '{') != 0) return -1;
    for (;;) {
        const char *k;
        size_t kn;
        if (parse_string(&c, &k, &kn) != 0) return -1;
        if (expect(&c, ':') != 0) return -1;
        int64_t *dst = NULL;
        unsigned bit;
        if (key_is(k, kn, "sym")) {
            if (parse_string(&c, &sym, &sym_len) != 0) return -1;
            bit = 1u << 0;
        } else {
            if (key_is(k, kn, "bid")) { dst = &q->bid; bit = 1u << 1; }
            else if (key_is(k, kn, "ask")) { dst = &q->ask; bit = 1u << 2; }
            else if (key_is(k, kn, "bidsz")) { dst = &q->bidsz; bit = 1u << 3; }
            else if (key_is(k, kn, "asksz")) { dst = &q->asksz; bit = 1u << 4; }
            else if (key_is(k, kn, "ts")) { dst = &q->ts; bit = 1u << 5; }
            else if (key_is(k, kn, "seq")) { dst = &q->seq; bit = 1u << 6; }
            else return -1;
            if (parse_int(&c, dst) != 0) return -1;
        }
        seen |= bit;
        skip_ws(&c);
        if (c.p >= c.end) return -1;
        if (*c.p == ',') {
            c.p++;
            continue;
        }
        if (*c.p == '}') {
            c.p++;
            break;
        }
        return -1;
    }
    skip_ws(&c);
    if (c.p != c.end || seen != 0x7fu) return -1;
    q->sym = malloc(sym_len + 1);
    if (q->sym == NULL) abort();
    memcpy(q->sym, sym, sym_len);
    q->sym[sym_len] = '\0';
    return 0;
}

int main(void) {
    int64_t s = seed_from_env();
    char buf[256];
    int n = snprintf(buf, sizeof buf,
                     "{\"sym\": \"BTCUSD\", \"bid\": 50000, \"ask\": 50010, \"bidsz\": 12, "
                     "\"asksz\": 8, \"ts\": 1700000000000, \"seq\": %lld}",
                     (long long)s);
    if (n < 0 || (size_t)n >= sizeof buf) abort();
    size_t len = (size_t)n;

    int64_t total = 0;
    int64_t t0 = mono_ns();
    for (int64_t i = 0; i < ITERS; i++) {
        const char *text = buf;
        __asm__ volatile("" : "+r"(text) : : "memory");
        Quote q;
        if (parse_quote(text, len, &q) != 0) {
            fprintf(stderr, "parse error\n");
            return 1;
        }
        total += q.bid + q.ask + q.seq;
        free(q.sym);
    }
    __asm__ volatile("" : "+r"(total) : : "memory");
    int64_t t1 = mono_ns();

    printf("elapsed_ns=%lld\n", (long long)(t1 - t0));
    printf("check=iters:%lld,total:%lld\n", (long long)ITERS, (long long)total);
    return 0;
}
