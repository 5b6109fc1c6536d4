/* pipeline_3stage (C sibling)
 *
 * Workload: one thread, three stages linked by two subjects, each a FIFO queue with one
 * subscriber: Source publishes N = 50,000 Event{value: S+i} on the "event" queue; Filter, the
 * "event" subscriber, keeps even values and publishes Filtered{value} on the "filtered" queue;
 * Sink, the "filtered" subscriber, counts and sums. Delivery is a scheduler loop that, while
 * either queue is non-empty, hands one message from each non-empty queue to its subscriber
 * through a function pointer. Source publishes all N before the scheduler runs. Timed: from the
 * first publish until both queues are drained (the sink has seen every filtered message).
 * Fairness: S = HALEBENCH_SEED (run time) so counts and sums cannot fold. Queues are growable
 * power-of-two rings of payload structs (values copied in and out, as in the other siblings'
 * FIFOs). Handlers are called through pointers stored in the subject records; the optimiser
 * may still see through them (a plain-C advantage, not removed).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 50000

typedef struct {
    int64_t value;
} Event;

typedef struct {
    int64_t value;
} Filtered;

/* A growable power-of-two ring of fixed-size messages (int64 payloads here). */
typedef struct {
    int64_t *buf;
    size_t cap; /* power of two */
    size_t head;
    size_t len;
} Queue;

typedef struct Pipeline Pipeline;

typedef struct {
    Queue q;
    void (*deliver)(Pipeline *, int64_t);
} Subject;

struct Pipeline {
    Subject events;   /* Event -> Filter */
    Subject filtered; /* Filtered -> Sink */
    int64_t filter_passed;
    int64_t sink_count;
    int64_t sink_sum;
};

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

static void queue_push(Queue *q, int64_t x) {
    if (q->len == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : 16;
        int64_t *nb = malloc(cap * sizeof *nb);
        if (nb == NULL) {
            perror("malloc");
            exit(1);
        }
        for (size_t i = 0; i < q->len; i++) nb[i] = q->buf[(q->head + i) & (q->cap - 1)];
        free(q->buf);
        q->buf = nb;
        q->cap = cap;
        q->head = 0;
    }
    q->buf[(q->head + q->len) & (q->cap - 1)] = x;
    q->len++;
}

static int64_t queue_pop(Queue *q) {
    int64_t x = q->buf[q->head];
    q->head = (q->head + 1) & (q->cap - 1);
    q->len--;
    return x;
}

static void publish_event(Pipeline *p, Event e) { queue_push(&p->events.q, e.value); }

static void publish_filtered(Pipeline *p, Filtered f) { queue_push(&p->filtered.q, f.value); }

static void filter_on_event(Pipeline *p, int64_t raw) {
    Event e = {raw};
    if (e.value % 2 == 0) {
        p->filter_passed++;
        Filtered f = {e.value};
        publish_filtered(p, f);
    }
}

static void sink_on_filtered(Pipeline *p, int64_t raw) {
    Filtered f = {raw};
    p->sink_count++;
    p->sink_sum += f.value;
}

static void run_until_drained(Pipeline *p) {
    Subject *subjects[2] = {&p->events, &p->filtered};
    for (;;) {
        int delivered = 0;
        for (int k = 0; k < 2; k++) {
            Subject *s = subjects[k];
            if (s->q.len > 0) {
                s->deliver(p, queue_pop(&s->q));
                delivered = 1;
            }
        }
        if (!delivered) break;
    }
}

int main(void) {
    int64_t seed = read_seed();
    Pipeline p = {0};
    p.events.deliver = filter_on_event;
    p.filtered.deliver = sink_on_filtered;

    int64_t t0 = now_ns();
    for (int64_t i = 0; i < N; i++) {
        Event e = {seed + i};
        publish_event(&p, e);
    }
    run_until_drained(&p);
    int64_t t1 = now_ns();

    free(p.events.q.buf);
    free(p.filtered.q.buf);
    printf("elapsed_ns=%" PRId64 "\n", t1 - t0);
    printf("check=n:%d,filter_passed:%" PRId64 ",sink_count:%" PRId64 ",sink_sum:%" PRId64 "\n", N,
           p.filter_passed, p.sink_count, p.sink_sum);
    return 0;
}
