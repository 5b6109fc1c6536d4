/* Test bench: which personality(2) calls a bench may make. The count
 * lane's ADDR_NO_RANDOMIZE and the query pass; any other domain or flag
 * (READ_IMPLIES_EXEC, or ADDR_NO_RANDOMIZE with it) is refused. */
#include <errno.h>
#include <stdio.h>
#include <sys/personality.h>
int main(void) {
    int cur = personality(0xffffffff);
    int no_aslr = personality(ADDR_NO_RANDOMIZE);
    int rie = personality(READ_IMPLIES_EXEC);
    int rie_errno = errno;
    int both = personality(ADDR_NO_RANDOMIZE | READ_IMPLIES_EXEC);
    int both_errno = errno;
    printf("elapsed_ns=1\ncheck=query:%d,no_aslr:%d,rie:%d/%d,both:%d/%d\n", cur >= 0, no_aslr >= 0,
           rie, rie_errno == EPERM, both, both_errno == EPERM);
    return 0;
}
