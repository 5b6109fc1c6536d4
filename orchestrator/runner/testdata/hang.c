/* Test bench: never ends. */
#include <unistd.h>
int main(void) { for (;;) pause(); }
