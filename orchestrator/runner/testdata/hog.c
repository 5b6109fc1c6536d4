/* Test bench: allocates and touches memory until something stops it. */
#include <stdlib.h>
#include <string.h>
int main(void) {
    for (;;) {
        volatile char *p = malloc(64u << 20);
        if (!p) return 1;
        for (size_t i = 0; i < (64u << 20); i += 4096) p[i] = 1;
    }
}
