/* hostile.h: Python and Cython keywords and builtins as C names, and comments
 * that would break a naive emitter.  tests/test_hostile_names.py builds it
 * with every backend. */
#ifndef HOSTILE_H
#define HOSTILE_H

/* A record named class. Quotes: """triple""" and '''single''' stay as written. */
struct class {
    int def;
    int cdef;
    int None;
    int lambda;
};

// A record named object; C:\path\ has backslashes and a */ b is not an end.
typedef struct object {
    int type;
    int len;
    int self;
    int print;
} object;

/* Members named as what a class body uses, as Xlib's XSelectionRequestEvent.property:
   the record class used property for every member after it. */
struct attrs {
    long property;
    int staticmethod;
    int classmethod;
    int from_bytes;   /* the names of the class's own methods */
    int from_pointer;
    int after;
};
/* property + 10 * after */
long attrs_sum(const struct attrs *a);

enum from { import = 1, True = 2, in = 4, is = 8 };

/* Returns cpdef + from. Quotes: """triple""" and '''single''' stay as written. */
int def(int cpdef, int from);
// Path C:\path\ ends in a backslash; a */ b is not the end of anything.
int print(int in, int is);
/* Non-ASCII: résumé → done. */
int len(const struct class *self);
/* Escapes stay literal: \n is not a newline and \t is not a tab. */
int type(const object *import);
/* cdef: returns None * 2. */
int cdef(int None);
/* cpdef: returns True + 1. */
int cpdef(int True);
/* lambda: returns -self. */
int lambda(int self);
/* Parameters named as the module's own classes, as LLVM's LLVMBuildGEP(B, Pointer, ...):
   an opaque handle; returns 1 when Pointer and FunctionPointer are the same handle. */
typedef struct gadget gadget;
gadget *gadget_make(void);
int gadget_same(gadget *Pointer, gadget *FunctionPointer, int Error);

/* Names a class body would rewrite (Python's name mangling: __x in class C is _C__x), as
   glibc's struct stat.__pad0, its __sigset_t as another record's member, sys/resource.h's
   __RLIM_NLIMITS: a type, a member and an enumerator, beside a member already named _x. */
typedef struct { int a; } __inner_t;
struct mangled { __inner_t inner; int __x; int _x; __inner_t *where; };
/* inner.a + 10 * __x + 100 * _x */
int mangled_sum(const struct mangled *m);
enum __kind { __FIRST = 1, SECOND = 2 };
int __twice(enum __kind k);
/* Members named as a record object's own attributes in some backend, as pthread's __owner is once
   it keeps one underscore: owner + 10 * p + 100 * pb_x */
struct owners { int __owner; int _p; int _pb_x; };
int owners_sum(const struct owners *o);

#endif
