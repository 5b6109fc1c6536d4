/* Test bench: says why on stderr, then aborts (SIGABRT). */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    fprintf(stderr, "crash: the table is inconsistent\n");
    abort();
}
