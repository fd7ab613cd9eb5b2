#include "aliases.h"

long scale64(long value, long factor) { return value * factor; }
long offset64(long value) { return value + 64; }
