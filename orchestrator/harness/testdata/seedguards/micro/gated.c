/* Test bench: counts to 1,000,000 from the seed; the siblings must agree. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(void) {
    const char *s = getenv("HALEBENCH_SEED");
    long long acc = s ? atoll(s) : 0, n = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (volatile long long i = 0; i < 1000000; i++) { acc ^= i; n++; }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("elapsed_ns=%lld\ncheck=iters:%lld,acc:%lld\n", (long long)((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec)), n, acc);
    return 0;
}
