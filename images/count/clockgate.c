/*
 * halebench clock gate: an LD_PRELOAD library for the count lane.
 *
 * A bench times its work between two reads of CLOCK_MONOTONIC. Run under
 * Callgrind with --collect-atstart=no, this library turns Callgrind's
 * collection on right after the program's first monotonic read returns and
 * off right before its second one is taken, so the count covers the timed
 * region and not the start-up, the set-up or the printing around it.
 *
 * When the region is not delimited by exactly two reads on one thread (a
 * third monotonic read, a read before or after another thread exists, a
 * second thread at all) the library says so on Valgrind's own log through a
 * client request ("**PID** halebench-clockgate: ..."), and the sampler counts
 * the whole process instead. The second read says "region closed" there:
 * without it (one read, none, an exit inside the region) the region is not
 * delimited either. The bench can issue the same client requests itself
 * (print these lines, toggle collection): a bench's count, like its own
 * elapsed_ns, is only as honest as its source, which is reviewed. What it
 * cannot do is change another bench's count or forge Valgrind's summary
 * through its stdout or stderr, which the sampler never reads for counts.
 *
 * Outside Valgrind the client requests are no-ops: the program runs as it
 * would without the library.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <valgrind/callgrind.h>
#include <valgrind/valgrind.h>

typedef int (*clock_fn)(clockid_t, struct timespec *);
typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

static atomic_int reads;      /* monotonic reads so far */
static atomic_int collecting; /* 1 while Callgrind collects */
static atomic_int undelimited;

/* give_up stops collecting and says once why the region is not delimited. */
static void give_up(const char *why) {
    if (atomic_exchange(&collecting, 0)) {
        CALLGRIND_TOGGLE_COLLECT;
    }
    if (!atomic_exchange(&undelimited, 1)) {
        VALGRIND_PRINTF("halebench-clockgate: region not delimited: %s\n", why);
    }
}

static clock_fn real_clock(void) {
    static clock_fn fn;
    if (fn == NULL) {
        fn = (clock_fn)dlsym(RTLD_NEXT, "clock_gettime");
    }
    return fn;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    clock_fn real = real_clock();
    if (real == NULL) {
        return -1;
    }
    if (id != CLOCK_MONOTONIC || atomic_load(&undelimited)) {
        return real(id, ts);
    }
    int n = atomic_fetch_add(&reads, 1) + 1;
    if (n == 1) {
        int rc = real(id, ts);
        atomic_store(&collecting, 1);
        CALLGRIND_TOGGLE_COLLECT;
        return rc;
    }
    if (n == 2) {
        if (atomic_exchange(&collecting, 0)) {
            CALLGRIND_TOGGLE_COLLECT;
        }
        int rc = real(id, ts);
        VALGRIND_PRINTF("halebench-clockgate: region closed\n");
        return rc;
    }
    give_up("a third CLOCK_MONOTONIC read");
    return real(id, ts);
}

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*start)(void *), void *arg) {
    static create_fn real;
    if (real == NULL) {
        real = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
    }
    give_up("a second thread");
    if (real == NULL) {
        return 11; /* EAGAIN */
    }
    return real(t, attr, start, arg);
}
