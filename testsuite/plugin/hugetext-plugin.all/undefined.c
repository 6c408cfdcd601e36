int no_such_function (void);
int main (void) { return no_such_function (); }
