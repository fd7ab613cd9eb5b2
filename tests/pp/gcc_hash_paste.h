/* # and ## corner cases, placemarkers, variadic forms. */
#define str(x) #x
#define xstr(x) str(x)
#define cat(a, b) a ## b
#define xcat(a, b) cat(a, b)
#define cat3(a, b, c) a ## b ## c
#define EMPTY
#define LPAREN (
str( a  +  b ) str("q\"x\\" 'c' '\0') str() str(  leading) str(EMPTY) xstr(EMPTY)
cat(,) cat(x,) cat(,y) cat(1, 2) cat(+, +) cat(<, <=) cat(L, 'a') cat(u8, "s") cat(., 5) cat(0x, 1f)
cat3(,,) cat3(a,,c) cat3(,b,) xcat(xcat(1, 2), 3) xstr(cat(a, b) c)
#define glue(a, ...) a ## __VA_ARGS__
glue(x) glue(x, y) glue(x, y, z)
#define gnu(fmt, ...) f(fmt, ## __VA_ARGS__)
gnu("a") gnu("a", 1) gnu("a", 1, 2) gnu("a",)
#define named(fmt, args...) g(fmt, ## args)
named(1) named(1, 2, 3)
#define va(...) h(__VA_ARGS__) #__VA_ARGS__
va() va(1) va(1,2) va( 1 , ( 2 , 3 ) )
#define opt(x, ...) k(x __VA_OPT__(,) __VA_ARGS__)
opt(1) opt(1, 2) opt(1, EMPTY)
#define hash_hash # ## #
#define mkstr(a) # a
#define in_between(a) mkstr(a)
#define join(c, d) in_between(c hash_hash d)
char p[] = join(x, y);
#define OBJ OBJ + 1
#define FN(x) FN(x) + x
OBJ FN(OBJ) FN(FN(2))
#define AA BB
#define BB AA
AA BB
#define lparen_later(x) x
#define call lparen_later
call (7) call
(8)
#define f2(a) a*g2
#define g2(a) f2(a)
f2(2)(9)
