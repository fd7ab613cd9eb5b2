/* #undef and redefinition in order; identical redefinition is silent. */
#define A 1
int a1 = A;
#define A 1
#undef A
int a2 = A;
#define A 2
int a3 = A;
#undef A
#define A(x) (x + 1)
int a4 = A(3) + A;
#undef A
#define A A
int a5 = A;
