/* Test bench: about 20 ms of work, long enough to be interrupted mid-run. */
#include <stdio.h>
#include <time.h>
int main(void) {
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    volatile long long x = 0;
    for (long long i = 0; i < 20000000; i++) x += i;
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("elapsed_ns=%lld\ncheck=ok:1\n", (long long)((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec)));
    return 0;
}
