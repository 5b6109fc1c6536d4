// Hostile bench: a setsid'd child keeps the bench's stdout open and sleeps
// far beyond any timeout; the bench itself answers at once.
#include <stdio.h>
#include <unistd.h>

int main(void) {
    if (fork() == 0) {
        setsid();
        sleep(100000);
        _exit(0);
    }
    printf("elapsed_ns=1\ncheck=holder\n");
    fflush(stdout);
    return 0;
}
