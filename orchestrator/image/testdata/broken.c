/* Does not compile, on purpose: the image must still build. */
int main(void) { return undefined_symbol; }
