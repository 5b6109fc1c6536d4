// Hostile bench: leaves what it can for the samples after it — a 256 MiB
// file in /tmp, a file in /run, a POSIX shared memory file in /dev/shm, a
// System V shared memory segment — after saying what it found left by the
// sample before it. Its check line: seen:<what it found>,left:<what it left>,
// one letter per place: t /tmp, r /run, d /dev/shm, s System V.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHM_KEY 0x48424c56

static const char *files[] = {"/tmp/halebench-leftover", "/run/halebench-leftover", "/dev/shm/halebench-leftover"};
static const char *letters[] = {"t", "r", "d"};
static const long sizes[] = {256L << 20, 1L << 20, 16L << 20};

// fill writes n bytes of ones to path, so tmpfs holds real pages.
static int fill(const char *path, long n) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) return 0;
    static char buf[1 << 20];
    memset(buf, 1, sizeof buf);
    for (long done = 0; done < n; done += sizeof buf)
        if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf) { close(fd); return 0; }
    close(fd);
    return 1;
}

int main(void) {
    char seen[128] = "", left[128] = "";
    struct stat st;
    for (int i = 0; i < 3; i++)
        if (stat(files[i], &st) == 0) strcat(seen, letters[i]);
    if (shmget(SHM_KEY, 0, 0) >= 0) strcat(seen, "s");
    for (int i = 0; i < 3; i++)
        if (fill(files[i], sizes[i])) strcat(left, letters[i]);
    int id = shmget(SHM_KEY, 16 << 20, IPC_CREAT | 0666);
    if (id >= 0) {
        char *p = shmat(id, NULL, 0);
        if (p != (void *)-1) { memset(p, 1, 16 << 20); shmdt(p); strcat(left, "s"); }
    }
    printf("elapsed_ns=1\ncheck=seen:%s,left:%s\n", seen[0] ? seen : "none", left);
    return 0;
}
