// Counts the processes of its own uid other than itself, zombies included:
// what earlier samples left behind in this container.
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
    int others = 0;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        int pid = atoi(e->d_name);
        if (pid <= 0 || pid == getpid()) continue;
        char path[64], line[256];
        snprintf(path, sizeof path, "/proc/%d/status", pid);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        int uid = -1;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "Uid: %d", &uid) == 1) break;
        fclose(f);
        if (uid == (int)getuid()) others++;
    }
    if (d) closedir(d);
    printf("elapsed_ns=1\ncheck=others:%d\n", others);
    return 0;
}
