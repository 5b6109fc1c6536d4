// Hostile bench: reports what it may do. Its check line carries its uid,
// its effective capabilities and the errno of each escape it tried (0: it
// worked), so the test can read them. Sockets are only created, never
// connected; the personality query changes nothing.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>

static int try(int r) { return r == 0 ? 0 : errno; }

int main(void) {
    char capeff[32] = "?", line[256];
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "CapEff: %31s", capeff) == 1) break;
    if (f) fclose(f);
    int remount = try(mount(NULL, "/", NULL, MS_REMOUNT, NULL));
    mkdir("/tmp/hostile-proc", 0700);
    int mountproc = try(mount("proc", "/tmp/hostile-proc", "proc", 0, NULL));
    int fd = open("/proc/1/fd/1", O_WRONLY);
    int pid1fd = fd >= 0 ? 0 : errno;
    int userns = try(unshare(CLONE_NEWUSER));
    int s = socket(40 /* AF_VSOCK */, SOCK_STREAM, 0);
    int vsock = s >= 0 ? 0 : errno;
    s = socket(AF_INET, SOCK_STREAM, 0);
    int inet = s >= 0 ? 0 : errno;
    s = socket(AF_PACKET, SOCK_RAW, 0);
    int packet = s >= 0 ? 0 : errno;
    int query = personality(0xffffffff) != -1 ? 0 : errno;
    int persona = personality(PER_LINUX32) != -1 ? 0 : errno;
    int noaslr = personality(ADDR_NO_RANDOMIZE) != -1 ? 0 : errno;
    struct rlimit core;
    getrlimit(RLIMIT_CORE, &core);
    printf("elapsed_ns=1\n");
    printf("check=uid:%d,capeff:%s,remount:%d,mountproc:%d,pid1fd:%d,userns:%d,"
           "vsock:%d,inet:%d,packet:%d,pquery:%d,persona:%d,noaslr:%d,core:%llu/%llu,home:%s\n",
           (int)getuid(), capeff, remount, mountproc, pid1fd, userns, vsock, inet, packet, query, persona, noaslr,
           (unsigned long long)core.rlim_cur, (unsigned long long)core.rlim_max, getenv("HOME"));
    return 0;
}
