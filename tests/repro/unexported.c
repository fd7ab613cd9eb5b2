#include "unexported.h"

int present(int value) { return value + 1; }
int also_present(int value) { return value + 2; }
