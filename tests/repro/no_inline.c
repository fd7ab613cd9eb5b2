int twice(int x) { return 2 * x; }
int thrice(int x) { return 3 * x; }
