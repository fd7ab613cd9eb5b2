#include "needs.h"

int outer_twice(int value) { return inner_add(value, value); }
