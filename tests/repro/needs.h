/* A library whose header declares what a library it needs defines (OpenSSL's
   ssl.h reaches crypto.h, whose functions libcrypto.so defines): the loader
   finds them through the library's DT_NEEDED, so they are bound. */
int outer_twice(int value);
int inner_add(int a, int b);
int nowhere(int value);
