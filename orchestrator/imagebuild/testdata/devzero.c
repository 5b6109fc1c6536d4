// A hostile bench: the compiler reads /dev/zero forever. The compile caps
// must make it build_failed, not hang the build or eat the host.
#include "/dev/zero"
int main(void) { return 0; }
