/* Test bench: prints 2 GiB on stdout; the sampler must cut it, not hold it. */
#include <stdio.h>
#include <string.h>
int main(void) {
    static char line[1 << 16];
    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    for (int i = 0; i < (1 << 15); i++) fwrite(line, 1, sizeof line, stdout);
    printf("elapsed_ns=1\n");
    return 0;
}
