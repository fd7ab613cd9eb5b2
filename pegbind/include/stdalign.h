/* stdalign.h: pegbind's own compact version (C11 7.15). */
#ifndef __PEGBIND_STDALIGN_H
#define __PEGBIND_STDALIGN_H
#define alignas _Alignas
#define alignof _Alignof
#define __alignas_is_defined 1
#define __alignof_is_defined 1
#endif
