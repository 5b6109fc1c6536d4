/* Test bench: exits 7 unless it runs with ASLR off (the count lane's personality). */
#include <sys/personality.h>
#include <stdio.h>
int main(void){ int p = personality(0xffffffff); printf("elapsed_ns=1\n"); return (p & ADDR_NO_RANDOMIZE) ? 0 : 7; }
