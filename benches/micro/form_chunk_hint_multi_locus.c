/* form_chunk_hint_multi_locus (C sibling)
 *
 * COVERAGE BENCH, NOT A RATIO SIGNAL: it checks that the multi-subscriber cross-thread shape
 * runs and drains; its elapsed time is not meant to be compared across languages.
 *
 * Workload: one other OS thread (the "io pool") hosts 16 Worker loci, each subscribed to the
 * subject "tick" with its own handler state. The main thread publishes 1,000 Tick{n: S+i} on
 * "tick": each publish looks the subject up by string (noinline) and posts {topic, tick} into a
 * bounded ring of capacity 64 (pthread mutex + condvars) to the io thread, which calls all 16
 * handlers (function pointers) for it: 16,000 handler calls. The io thread is started, its
 * workers subscribed, and it has signalled ready before t0. Timed: from the first publish until
 * the main thread has joined the io thread after all 16,000 handler calls (no sleep; the Rust
 * sibling drains the same way).
 * Fairness: S = HALEBENCH_SEED (run time); every handler sums n and each worker's sum is checked
 * after the run (exit 1 on a mismatch), so no call can be dropped.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N_TICKS 1000
#define WORKERS 16
#define CAP 64 /* power of two */
#define MAX_TOPICS 4

typedef struct {
    int64_t n;
} Tick;

typedef struct {
    int topic;
    Tick tick;
} Msg;

typedef struct {
    int id;
    int64_t handled;
    int64_t sum;
} Worker;

typedef void (*Handler)(Worker *w, const Tick *t);

typedef struct {
    Handler fn;
    Worker *worker;
} Sub;

typedef struct {
    Sub subs[WORKERS];
    int nsubs;
} Topic;

/* Subject names known to both sides; a topic id is an index into it. */
static const char *const SUBJECTS[MAX_TOPICS] = {"tick", "tock", "status", "shutdown"};

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t not_empty;
    pthread_cond_t not_full;
    Msg buf[CAP];
    unsigned head;
    unsigned len;
} Ring;

typedef struct {
    Ring ring;
    Topic topics[MAX_TOPICS];
    Worker workers[WORKERS];
    pthread_mutex_t ready_mu;
    pthread_cond_t ready_cv;
    int ready;
} IoPool;

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

__attribute__((noinline)) static int subject_lookup(const char *subject) {
    for (int i = 0; i < MAX_TOPICS; i++)
        if (strcmp(SUBJECTS[i], subject) == 0) return i;
    return -1;
}

static void ring_push(Ring *r, Msg m) {
    pthread_mutex_lock(&r->mu);
    while (r->len == CAP) pthread_cond_wait(&r->not_full, &r->mu);
    r->buf[(r->head + r->len) & (CAP - 1)] = m;
    r->len++;
    pthread_cond_signal(&r->not_empty);
    pthread_mutex_unlock(&r->mu);
}

static Msg ring_pop(Ring *r) {
    pthread_mutex_lock(&r->mu);
    while (r->len == 0) pthread_cond_wait(&r->not_empty, &r->mu);
    Msg m = r->buf[r->head];
    r->head = (r->head + 1) & (CAP - 1);
    r->len--;
    pthread_cond_signal(&r->not_full);
    pthread_mutex_unlock(&r->mu);
    return m;
}

static void worker_on_tick(Worker *w, const Tick *t) {
    w->handled++;
    w->sum += t->n;
}

static void subscribe(IoPool *p, const char *subject, Handler fn, Worker *w) {
    Topic *t = &p->topics[subject_lookup(subject)];
    t->subs[t->nsubs++] = (Sub){fn, w};
}

static void publish(IoPool *p, const char *subject, Tick tick) {
    int topic = subject_lookup(subject);
    if (topic < 0) return;
    ring_push(&p->ring, (Msg){topic, tick});
}

static void *io_main(void *arg) {
    IoPool *p = arg;
    for (int k = 0; k < WORKERS; k++) {
        p->workers[k] = (Worker){k, 0, 0};
        subscribe(p, "tick", worker_on_tick, &p->workers[k]);
    }
    pthread_mutex_lock(&p->ready_mu);
    p->ready = 1;
    pthread_cond_signal(&p->ready_cv);
    pthread_mutex_unlock(&p->ready_mu);

    for (int i = 0; i < N_TICKS; i++) {
        Msg m = ring_pop(&p->ring);
        Topic *t = &p->topics[m.topic];
        for (int s = 0; s < t->nsubs; s++) t->subs[s].fn(t->subs[s].worker, &m.tick);
    }
    return NULL;
}

int main(void) {
    int64_t seed = read_seed();
    static IoPool pool;
    pthread_mutex_init(&pool.ring.mu, NULL);
    pthread_cond_init(&pool.ring.not_empty, NULL);
    pthread_cond_init(&pool.ring.not_full, NULL);
    pthread_mutex_init(&pool.ready_mu, NULL);
    pthread_cond_init(&pool.ready_cv, NULL);

    pthread_t th;
    if (pthread_create(&th, NULL, io_main, &pool) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        return 1;
    }
    pthread_mutex_lock(&pool.ready_mu);
    while (!pool.ready) pthread_cond_wait(&pool.ready_cv, &pool.ready_mu);
    pthread_mutex_unlock(&pool.ready_mu);

    int64_t t0 = now_ns();
    for (int64_t i = 0; i < N_TICKS; i++) {
        const char *subject = "tick";
        __asm__ volatile("" : "+r"(subject));
        publish(&pool, subject, (Tick){seed + i});
    }
    pthread_join(th, NULL);
    int64_t t1 = now_ns();

    int64_t handled = 0;
    int64_t want_sum = (int64_t)N_TICKS * seed + (int64_t)N_TICKS * (N_TICKS - 1) / 2;
    for (int k = 0; k < WORKERS; k++) {
        handled += pool.workers[k].handled;
        if (pool.workers[k].sum != want_sum) {
            fprintf(stderr, "worker %d summed %" PRId64 ", want %" PRId64 "\n", k, pool.workers[k].sum,
                    want_sum);
            return 1;
        }
    }
    printf("elapsed_ns=%" PRId64 "\n", t1 - t0);
    printf("check=n_ticks:%d,workers:%d,handled:%" PRId64 "\n", N_TICKS, WORKERS, handled);
    return 0;
}
