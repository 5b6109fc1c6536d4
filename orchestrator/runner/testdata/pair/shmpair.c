/*
 * The two sides of a test pair sharing one IPC namespace (runner's
 * TestSamplePair): what each finds of the shared room, and what a producer
 * leaves in it after the reader's sampler last emptied it.
 *
 * shmpair reader: prints what /dev/shm and the System V tables hold, says
 *   ready, waits (at most 10 s) for the producer's /dev/shm/early, and
 *   prints elapsed_ns=1 and check=seen:<names>,sysv:<count>.
 * shmpair producer: makes /dev/shm/early and a System V segment, waits (at
 *   most 10 s) until the reader's sampler has emptied the room after the
 *   reader's sample (both gone: the segment is the last thing it removes),
 *   then leaves /dev/shm/late, and prints elapsed_ns=1 and
 *   check=late:<0 made, or errno>.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

static int exists(const char *p) {
    struct stat st;
    return stat(p, &st) == 0;
}

static int wait_for(const char *p, int present) {
    for (int i = 0; i < 1000; i++) {
        if (exists(p) == present) return 1;
        usleep(10000);
    }
    return 0;
}

static int sysv_count(void) {
    int n = -1; /* the header line */
    char line[512];
    FILE *f = fopen("/proc/sysvipc/shm", "r");
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) n++;
    fclose(f);
    return n;
}

static int reader(void) {
    char seen[1024] = "";
    DIR *d = opendir("/dev/shm");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (seen[0]) strncat(seen, "+", sizeof seen - strlen(seen) - 1);
        strncat(seen, e->d_name, sizeof seen - strlen(seen) - 1);
    }
    if (d) closedir(d);
    int sysv = sysv_count();
    puts("ready");
    fflush(stdout);
    if (!wait_for("/dev/shm/early", 1)) {
        fputs("shmpair reader: the producer never made /dev/shm/early\n", stderr);
        return 3;
    }
    printf("elapsed_ns=1\ncheck=seen:%s,sysv:%d\n", seen[0] ? seen : "none", sysv);
    return 0;
}

static int producer(void) {
    int fd = open("/dev/shm/early", O_CREAT | O_WRONLY, 0666);
    int seg = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
    if (fd < 0 || seg < 0) {
        perror("shmpair producer");
        return 1;
    }
    close(fd);
    int gone = 0;
    struct shmid_ds ds;
    for (int i = 0; i < 1000 && !gone; i++) {
        gone = !exists("/dev/shm/early") && shmctl(seg, IPC_STAT, &ds) < 0;
        if (!gone) usleep(10000);
    }
    if (!gone) {
        fputs("shmpair producer: nothing emptied the room after the reader\n", stderr);
        return 1;
    }
    fd = open("/dev/shm/late", O_CREAT | O_WRONLY, 0666);
    int err = fd < 0 ? errno : 0;
    if (fd >= 0) close(fd);
    printf("elapsed_ns=1\ncheck=late:%d\n", err);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "reader")) return reader();
    if (argc >= 2 && !strcmp(argv[1], "producer")) return producer();
    fputs("usage: shmpair reader|producer\n", stderr);
    return 2;
}
