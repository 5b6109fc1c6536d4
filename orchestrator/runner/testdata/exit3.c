/* Test bench: exits 3 with a message. */
#include <stdio.h>
int main(void) { fprintf(stderr, "bad input\n"); return 3; }
