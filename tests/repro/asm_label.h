/* A function whose symbol is not its name: an asm label, as glibc's __REDIRECT
   gives fseeko the symbol fseeko64 when files are 64-bit.  Compiled code calls
   it by its name; whatever looks the symbol up (the export check, ctypes, cffi's
   ABI mode, dlsym) must use the label. */
int label_twice(int value) __asm__("label_twice_v2");
int label_plain(int value);
