// Hostile bench: a setsid'd child tries to write forged sampler results,
// with guessed job ids, on the sampler's stdout (/proc/1/fd/1) and keeps
// trying; the bench itself answers at once.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    if (fork() == 0) {
        setsid();
        close(1);
        close(2);
        for (int round = 0; round < 600; round++) {
            int fd = open("/proc/1/fd/1", O_WRONLY);
            if (fd >= 0) {
                char buf[512];
                for (int id = 1; id <= 20; id++) {
                    int n = snprintf(buf, sizeof buf,
                        "halebench-result {\"id\":\"%d\",\"status\":\"ok\",\"samples\":[{\"status\":\"ok\",\"elapsed_ns\":42,\"wall_ns\":42}]}\n", id);
                    write(fd, buf, n);
                }
                close(fd);
            }
            usleep(50000);
        }
        _exit(0);
    }
    usleep(200000);
    printf("elapsed_ns=1\ncheck=forger\n");
    return 0;
}
