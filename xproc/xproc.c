/*
 * halebench xproc: shared-memory delivery from one process to another (C sibling).
 *
 * Usage: xproc reader small|large    /    xproc producer small|large
 *
 * What runs: a PRODUCER process writes N fixed records into a POSIX shared-memory
 * segment, and a READER process (which may run in another container that shares
 * /dev/shm) consumes them. The ring has room for all N records, so nothing wraps
 * and nothing is dropped.
 *   small: N = 200000 slots of 16 bytes {px, sz}, with px = i and sz = i+1. This
 *          variant is bound by the cost of each delivery.
 *   large: N = 20000 slots of 4096 bytes (512 int64s), with field k = i + k. The
 *          reader sums all 512 fields of every slot where the slot sits (no copy).
 *          Expected total: 105011200000. This variant is bound by memory traffic.
 *
 * Segment layout (/dev/shm/<HALEBENCH_SHM_NAME>, default "halebench_xproc"), all
 * int64s little-endian:
 *   [0,64)       header. Its first int64 is write_seq, the number of records committed.
 *   [64, ...)    N slots, one after another.
 * The header has a cache line to itself, so the line the reader polls is never
 * shared with slot data.
 *
 * Memory ordering: the producer writes slot i, then does
 * __atomic_store_n(&write_seq, i+1, __ATOMIC_RELEASE). The reader polls with
 * __atomic_load_n(..., __ATOMIC_ACQUIRE) and reads only slots below the value it
 * loaded, using plain loads. On x86-64 both are plain MOVs; no fence is emitted.
 *
 * Timed region: only the reader's clock (CLOCK_MONOTONIC) is used. The clock starts
 * when write_seq >= 1 is first seen and stops when all N records have been consumed.
 * Creating, sizing and mapping the segment happen before `ready` and are not timed.
 * The tmpfs pages are not pre-faulted (in any sibling). So the timed region
 * includes the producer's first touch of each page and the reader's minor faults
 * when it maps pages the producer has already filled.
 *
 * Fairness:
 *   - Every sibling uses the same layout and does the same consumer work. In
 *     small, that is reading px and sz of every published slot, checking them,
 *     and reading the last slot for the check line. In large, that is summing
 *     every int64 in place.
 *   - The small consumer compares each record with its expected (i, i+1). Without
 *     that comparison, an optimizing compiler could skip the middle slots of a
 *     batch and read only the last one.
 *   - In large, clang/gcc vectorize the sum with -march=native, because the
 *     consumer is a bare loop. That is this language's real advantage; it is not
 *     suppressed.
 *   - HALEBENCH_SEED is not used. The data arrives from another process at run
 *     time, so nothing can fold to a constant, and the protocol fixes the check line.
 *
 * Timeout: if write_seq does not advance for HALEBENCH_XPROC_TIMEOUT_MS ms (default
 * 10000), whether the reader is waiting for the first record or is mid-stream, the
 * reader prints status=producer_failed, unlinks the segment and exits 3. Bad data
 * still prints the check line, and the reader then exits 4. The clock is read only
 * once every 4096 idle polls.
 *
 * Build: clang -O3 -march=native -o xproc xproc.c -lm -lpthread
 * shm_open and shm_unlink are in libc from glibc 2.34 onward, so -lrt is not needed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HEADER_BYTES 64
#define SMALL_N 200000
#define LARGE_N 20000
#define LARGE_FIELDS 512
#define LARGE_EXPECTED_SUM 105011200000LL
#define POLL_MASK 4095u

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* shm_open wants "/NAME". Accept either form in the environment variable. */
static void shm_name(char *out, size_t cap) {
    const char *n = getenv("HALEBENCH_SHM_NAME");
    if (n == NULL || *n == '\0') n = "halebench_xproc";
    while (*n == '/') n++;
    snprintf(out, cap, "/%s", n);
}

static int64_t timeout_ns(void) {
    const char *s = getenv("HALEBENCH_XPROC_TIMEOUT_MS");
    long long ms = 10000;
    if (s != NULL && *s != '\0') {
        char *end = NULL;
        long long v = strtoll(s, &end, 10);
        if (end != s && *end == '\0' && v > 0) ms = v;
    }
    return (int64_t)ms * 1000000LL;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ------------------------------------------------------------------ reader */

static int run_reader(int large) {
    const int64_t n = large ? LARGE_N : SMALL_N;
    const size_t slot_bytes = large ? LARGE_FIELDS * 8 : 16;
    const size_t total = HEADER_BYTES + (size_t)n * slot_bytes;
    const int64_t tmo = timeout_ns();
    char name[256];
    shm_name(name, sizeof name);

    shm_unlink(name); /* remove a stale segment, if any */
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0666);
    if (fd < 0) {
        fprintf(stderr, "xproc reader: shm_open(%s): %s\n", name, strerror(errno));
        return 2;
    }
    fchmod(fd, 0666); /* umask may be narrower; the producer may be another uid */
    if (ftruncate(fd, (off_t)total) != 0) {
        fprintf(stderr, "xproc reader: ftruncate: %s\n", strerror(errno));
        close(fd);
        shm_unlink(name);
        return 2;
    }
    uint8_t *base = mmap(NULL, total, PROT_READ, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        fprintf(stderr, "xproc reader: mmap: %s\n", strerror(errno));
        close(fd);
        shm_unlink(name);
        return 2;
    }
    close(fd);

    const int64_t *seqp = (const int64_t *)base;
    const int64_t *slots = (const int64_t *)(base + HEADER_BYTES);
    const int64_t words = (int64_t)(slot_bytes / 8);

    fputs("ready\n", stdout);
    fflush(stdout);

    int64_t seen = 0, mark = 0, bad = 0, sum = 0;
    uint32_t idle = 0;
    int64_t t_progress = now_ns();
    int64_t t0 = 0;
    int started = 0;

    while (seen < n) {
        int64_t w = __atomic_load_n(seqp, __ATOMIC_ACQUIRE);
        if (w > seen) {
            if (!started) {
                t0 = now_ns();
                started = 1;
            }
            if (w > n) w = n;
            if (large) {
                const int64_t *p = slots + seen * words;
                const int64_t cnt = (w - seen) * words;
                int64_t s = 0;
                for (int64_t j = 0; j < cnt; j++) s += p[j];
                sum += s;
            } else {
                for (int64_t i = seen; i < w; i++) {
                    const int64_t *rec = slots + 2 * i;
                    bad += (rec[0] != i) | (rec[1] != i + 1);
                }
            }
            seen = w;
            continue;
        }
        if ((++idle & POLL_MASK) == 0) {
            int64_t t = now_ns();
            if (seen != mark) {
                mark = seen;
                t_progress = t;
            } else if (t - t_progress > tmo) {
                munmap(base, total);
                shm_unlink(name);
                fputs("status=producer_failed\n", stdout);
                fflush(stdout);
                fprintf(stderr, "xproc reader: no progress for %lld ms at %lld/%lld records\n",
                        (long long)(tmo / 1000000), (long long)seen, (long long)n);
                return 3;
            }
        }
    }
    int64_t elapsed = now_ns() - t0;

    int ok;
    char check[128];
    if (large) {
        ok = sum == LARGE_EXPECTED_SUM;
        snprintf(check, sizeof check, "check=n:%lld,sum:%lld", (long long)seen, (long long)sum);
    } else {
        int64_t last_px = slots[2 * (n - 1)];
        int64_t last_sz = slots[2 * (n - 1) + 1];
        ok = bad == 0 && last_px == n - 1 && last_sz == n;
        snprintf(check, sizeof check, "check=n:%lld,last_px:%lld,last_sz:%lld",
                 (long long)seen, (long long)last_px, (long long)last_sz);
        if (bad) fprintf(stderr, "xproc reader: %lld records held wrong values\n", (long long)bad);
    }
    munmap(base, total);
    shm_unlink(name);
    printf("elapsed_ns=%lld\n%s\n", (long long)elapsed, check);
    fflush(stdout);
    return ok ? 0 : 4;
}

/* ---------------------------------------------------------------- producer */

static int run_producer(int large) {
    const int64_t n = large ? LARGE_N : SMALL_N;
    const size_t slot_bytes = large ? LARGE_FIELDS * 8 : 16;
    const size_t total = HEADER_BYTES + (size_t)n * slot_bytes;
    const int64_t tmo = timeout_ns();
    char name[256];
    shm_name(name, sizeof name);

    /* Wait for the reader's segment: it must exist, have the full size, and still
     * have write_seq == 0. A leftover from an earlier run fails that last test. */
    uint8_t *base = NULL;
    const int64_t deadline = now_ns() + tmo;
    for (;;) {
        int fd = shm_open(name, O_RDWR, 0);
        if (fd >= 0) {
            struct stat st;
            if (fstat(fd, &st) == 0 && (size_t)st.st_size == total) {
                void *m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
                if (m != MAP_FAILED) {
                    if (__atomic_load_n((int64_t *)m, __ATOMIC_ACQUIRE) == 0) {
                        close(fd);
                        base = m;
                        break;
                    }
                    munmap(m, total);
                }
            }
            close(fd);
        }
        if (now_ns() > deadline) {
            fprintf(stderr, "xproc producer: segment %s (%zu bytes) not ready within %lld ms\n",
                    name, total, (long long)(tmo / 1000000));
            return 3;
        }
        sleep_ms(1);
    }

    int64_t *seqp = (int64_t *)base;
    int64_t *slots = (int64_t *)(base + HEADER_BYTES);
    if (large) {
        for (int64_t i = 0; i < n; i++) {
            int64_t *rec = slots + i * LARGE_FIELDS;
            for (int64_t k = 0; k < LARGE_FIELDS; k++) rec[k] = i + k;
            __atomic_store_n(seqp, i + 1, __ATOMIC_RELEASE);
        }
    } else {
        for (int64_t i = 0; i < n; i++) {
            slots[2 * i] = i;
            slots[2 * i + 1] = i + 1;
            __atomic_store_n(seqp, i + 1, __ATOMIC_RELEASE);
        }
    }
    munmap(base, total);
    printf("produced=%lld\n", (long long)n);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[2], "small") != 0 && strcmp(argv[2], "large") != 0)) {
        fprintf(stderr, "usage: %s reader|producer small|large\n", argv[0]);
        return 2;
    }
    int large = strcmp(argv[2], "large") == 0;
    if (strcmp(argv[1], "reader") == 0) return run_reader(large);
    if (strcmp(argv[1], "producer") == 0) return run_producer(large);
    fprintf(stderr, "usage: %s reader|producer small|large\n", argv[0]);
    return 2;
}
