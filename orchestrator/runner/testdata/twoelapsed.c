/* Test bench: prints elapsed_ns twice. */
#include <stdio.h>
int main(void) { printf("elapsed_ns=5\nelapsed_ns=6\n"); return 0; }
