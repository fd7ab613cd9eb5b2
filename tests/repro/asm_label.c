#include "asm_label.h"

int label_twice(int value) { return 2 * value; }
int label_plain(int value) { return value + 1; }
