/* Says ready twice among other lines, then its figures (runner's
 * TestServerReadyLine): the sampler's ready line comes once. */
#include <stdio.h>

int main(void) {
    fputs("not ready\nready\nready\nelapsed_ns=1\ncheck=said\n", stdout);
    return 0;
}
