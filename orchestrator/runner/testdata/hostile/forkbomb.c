// Hostile bench: forks without end, each child in a session of its own,
// until the pids limit stops it; then keeps trying.
#include <unistd.h>

int main(void) {
    for (;;) {
        if (fork() == 0) setsid();
    }
}
