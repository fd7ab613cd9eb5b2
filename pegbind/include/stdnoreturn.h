/* stdnoreturn.h: pegbind's own compact version (C11 7.23). */
#ifndef __PEGBIND_STDNORETURN_H
#define __PEGBIND_STDNORETURN_H
#define noreturn _Noreturn
#endif
