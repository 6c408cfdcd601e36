#include <stdio.h>
int main (void) { puts ("small"); return 0; }
