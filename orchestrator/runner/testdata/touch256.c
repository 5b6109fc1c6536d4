/* Test bench: touches 256 MiB so that the sample's cgroup peak must show it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
int main(void) {
    struct timespec a, b;
    size_t n = 256u << 20;
    clock_gettime(CLOCK_MONOTONIC, &a);
    /* volatile: clang would elide a malloc+memset whose bytes are never read. */
    volatile char *p = malloc(n);
    if (!p) return 1;
    for (size_t i = 0; i < n; i += 4096) p[i] = 1;
    clock_gettime(CLOCK_MONOTONIC, &b);
    long long ns = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
    printf("elapsed_ns=%lld\ncheck=bytes:%zu,first:%d\n", ns, n, p[0]);
    return 0;
}
