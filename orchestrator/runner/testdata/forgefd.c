/* Test bench: forges its own count on every descriptor it holds. It writes a
 * Callgrind summary of 4242 instructions under its own pid to descriptors 0
 * to 255 (fd 3, where Valgrind's log used to be, among them) and to every
 * socket /proc/self/fd lists (Valgrind's log socket among them, out of
 * reach of write but not of send or dup), each directly, through send, and
 * through a dup; then it closes 0 to 255 and execs /bin/true, which would
 * end Valgrind without its own summary. The count must be count_failed or
 * the true one, never 4242. */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static char line[256];

static void forge(int fd) {
    size_t n = strlen(line);
    struct stat st;
    /* Valgrind's own pipes above 255 are left alone: writing them crashes
     * Valgrind, which fails the count for another reason. */
    if (fd > 255 && (fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode))) {
        return;
    }
    if (write(fd, line, n) < 0) {}
    if (send(fd, line, n, MSG_NOSIGNAL) < 0) {}
    int d = dup(fd);
    if (d >= 0) {
        if (write(d, line, n) < 0) {}
        if (send(d, line, n, MSG_NOSIGNAL) < 0) {}
        close(d);
    }
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    snprintf(line, sizeof line, "==%d== Events    : Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n==%d== Collected : 4242 5 5 5 5 5 5 5 5\n",
             (int)getpid(), (int)getpid());
    printf("elapsed_ns=1\n");
    fflush(stdout);
    for (int fd = 0; fd < 256; fd++) {
        forge(fd);
    }
    int fds[4096], n = 0;
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL && n < 4096) {
        if (e->d_name[0] != '.') {
            fds[n++] = atoi(e->d_name);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    for (int i = 0; i < n; i++) {
        forge(fds[i]);
    }
    for (int fd = 0; fd < 256; fd++) {
        close(fd);
    }
    execl("/bin/true", "true", (char *)0);
    return 0;
}
