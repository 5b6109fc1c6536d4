/* Test bench: two worker threads share a counter inside the timed region;
 * a count of it cannot be delimited by the clock reads (process scope). */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
static volatile long counter;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static void *work(void *arg) {
    for (int i = 0; i < 20000; i++) {
        pthread_mutex_lock(&mu);
        counter++;
        pthread_mutex_unlock(&mu);
    }
    return arg;
}
int main(void) {
    struct timespec a, b;
    pthread_t t[2];
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, work, NULL);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("elapsed_ns=%lld\ncheck=counter:%ld\n", (long long)((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec)), counter);
    return 0;
}
