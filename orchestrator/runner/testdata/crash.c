/* Test bench: dies of SIGSEGV after writing to stderr. */
#include <stdio.h>
int main(void) {
    fprintf(stderr, "about to crash\n");
    fflush(stderr);
    volatile int *p = 0;
    *p = 1;
    return 0;
}
