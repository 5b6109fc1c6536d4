/* Test bench: almost no memory, a short timed loop. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(void) {
    struct timespec a, b;
    const char *s = getenv("HALEBENCH_SEED");
    long long acc = s ? atoll(s) : 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (volatile int i = 0; i < 100000; i++) acc ^= i;
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("elapsed_ns=%lld\ncheck=acc:%lld\n", (long long)((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec)), acc);
    return 0;
}
