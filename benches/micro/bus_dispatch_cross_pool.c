/* bus_dispatch_cross_pool (C sibling)
 *
 * Workload: 100,000 Tick{n: S+i} sent from the main thread to a consumer thread through a
 * bounded ring of capacity 64 (pthread mutex + two condition variables: not-full, not-empty).
 * The consumer counts and sums n. The consumer thread is started and has signalled that it is
 * ready before t0. Timed: from the first publish until the main thread has joined the consumer
 * after it received all 100,000 (the drain is timed, not only the publish loop).
 * Fairness: S = HALEBENCH_SEED (run time). Ticks are copied by value into the ring. The producer
 * blocks when the ring is full and the consumer when it is empty, as Go's buffered channel and
 * Rust's sync_channel do; condvars are signalled on every push/pop (glibc makes a signal with
 * no waiter cheap).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ITERS 100000
#define CAP 64 /* power of two */

typedef struct {
    int64_t n;
} Tick;

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t not_empty;
    pthread_cond_t not_full;
    Tick buf[CAP];
    unsigned head;
    unsigned len;
} Ring;

typedef struct {
    Ring *ring;
    pthread_mutex_t ready_mu;
    pthread_cond_t ready_cv;
    int ready;
    int64_t count;
    int64_t sum;
} Consumer;

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

static void ring_init(Ring *r) {
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->not_empty, NULL);
    pthread_cond_init(&r->not_full, NULL);
    r->head = 0;
    r->len = 0;
}

static void ring_push(Ring *r, Tick t) {
    pthread_mutex_lock(&r->mu);
    while (r->len == CAP) pthread_cond_wait(&r->not_full, &r->mu);
    r->buf[(r->head + r->len) & (CAP - 1)] = t;
    r->len++;
    pthread_cond_signal(&r->not_empty);
    pthread_mutex_unlock(&r->mu);
}

static Tick ring_pop(Ring *r) {
    pthread_mutex_lock(&r->mu);
    while (r->len == 0) pthread_cond_wait(&r->not_empty, &r->mu);
    Tick t = r->buf[r->head];
    r->head = (r->head + 1) & (CAP - 1);
    r->len--;
    pthread_cond_signal(&r->not_full);
    pthread_mutex_unlock(&r->mu);
    return t;
}

static void *consumer_main(void *arg) {
    Consumer *c = arg;
    pthread_mutex_lock(&c->ready_mu);
    c->ready = 1;
    pthread_cond_signal(&c->ready_cv);
    pthread_mutex_unlock(&c->ready_mu);

    int64_t count = 0, sum = 0;
    for (int i = 0; i < ITERS; i++) {
        Tick t = ring_pop(c->ring);
        count++;
        sum += t.n;
    }
    c->count = count;
    c->sum = sum;
    return NULL;
}

int main(void) {
    int64_t seed = read_seed();
    static Ring ring;
    ring_init(&ring);
    static Consumer consumer;
    consumer.ring = &ring;
    pthread_mutex_init(&consumer.ready_mu, NULL);
    pthread_cond_init(&consumer.ready_cv, NULL);

    pthread_t th;
    if (pthread_create(&th, NULL, consumer_main, &consumer) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        return 1;
    }
    pthread_mutex_lock(&consumer.ready_mu);
    while (!consumer.ready) pthread_cond_wait(&consumer.ready_cv, &consumer.ready_mu);
    pthread_mutex_unlock(&consumer.ready_mu);

    int64_t t0 = now_ns();
    for (int64_t i = 0; i < ITERS; i++) {
        Tick t = {seed + i};
        ring_push(&ring, t);
    }
    pthread_join(th, NULL);
    int64_t t1 = now_ns();

    printf("elapsed_ns=%" PRId64 "\n", t1 - t0);
    printf("check=iters:%d,count:%" PRId64 ",sum:%" PRId64 "\n", ITERS, consumer.count, consumer.sum);
    return 0;
}
