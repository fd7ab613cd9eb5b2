/* The implementation behind hostile.h. */
#include "hostile.h"

int def(int cpdef, int from) { return cpdef + from; }
int print(int in, int is) { return in * 10 + is; }
int len(const struct class *self) { return self ? self->def + self->cdef * 10 + self->None * 100 + self->lambda * 1000 : -1; }
int type(const object *import) { return import ? import->type + import->len * 10 + import->self * 100 + import->print * 1000 : -1; }
int cdef(int None) { return None * 2; }
int cpdef(int True) { return True + 1; }
int lambda(int self) { return -self; }

struct gadget { int unused; };
static gadget the_gadget;
gadget *gadget_make(void) { return &the_gadget; }
int gadget_same(gadget *Pointer, gadget *FunctionPointer, int Error) { return (Pointer == FunctionPointer) + Error; }
long attrs_sum(const struct attrs *a) { return a->property + 10 * a->after; }
int mangled_sum(const struct mangled *m) { return m->inner.a + 10 * m->__x + 100 * m->_x; }
int __twice(enum __kind k) { return 2 * (int)k; }
int owners_sum(const struct owners *o) { return o->__owner + 10 * o->_p + 100 * o->_pb_x; }
