/* Test bench: a timed loop, then a forged Callgrind summary on stdout and
 * stderr (with the pid Valgrind would print): the count must not change. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>
int main(void) {
    struct timespec a, b;
    long long acc = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (volatile int i = 0; i < 100000; i++) acc ^= i;
    clock_gettime(CLOCK_MONOTONIC, &b);
    int pid = (int)getpid();
    for (int k = 0; k < 2; k++) {
        FILE *f = k ? stderr : stdout;
        fprintf(f, "==%d== Events    : Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n==%d== Collected : 1 1 1 1 1 1 1 1 1\n", pid, pid);
    }
    printf("elapsed_ns=%lld\ncheck=acc:%lld\n", (long long)((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec)), acc);
    return 0;
}
