/* Test bench: writes a forged Callgrind summary into every descriptor it can
 * open through /proc/self/fd (Valgrind's private log among them), then execs
 * /bin/true, which untraced would end Valgrind without its own summary. The
 * count must never be the forged number. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    char path[64], line[256];
    snprintf(line, sizeof line, "==%d== Events    : Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n==%d== Collected : 5 5 5 5 5 5 5 5 5\n",
             (int)getpid(), (int)getpid());
    for (int fd = 3; fd < 1100; fd++) {
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        int f = open(path, O_WRONLY | O_NONBLOCK);
        if (f >= 0) {
            if (write(f, line, strlen(line)) < 0) perror("write");
            close(f);
        }
    }
    printf("elapsed_ns=1\n");
    fflush(stdout);
    execl("/bin/true", "true", (char *)0);
    return 0;
}
