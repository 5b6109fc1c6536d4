/* Test bench: under Valgrind (its vgpreload library mapped: a counted run),
   exits 7 unless ASLR is off (the count lane's personality); natively (the
   timed run the count's check= is taken from) it exits 0. */
#include <sys/personality.h>
#include <stdio.h>
#include <string.h>
int main(void){
    int p = personality(0xffffffff), valgrind = 0;
    char line[512];
    FILE *m = fopen("/proc/self/maps", "r");
    while (m && fgets(line, sizeof line, m)) valgrind |= strstr(line, "vgpreload") != NULL;
    printf("elapsed_ns=1\ncheck=ok\n");
    return valgrind && !(p & ADDR_NO_RANDOMIZE) ? 7 : 0;
}
