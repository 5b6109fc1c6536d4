/* Test bench: prints no elapsed_ns line. */
#include <stdio.h>
int main(void) { printf("hello\n"); return 0; }
