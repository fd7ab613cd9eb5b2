/* Cause 4: types of the C library a library's declarations use, read from the
   system's own headers: FILE (opaque, whatever glibc shows of it), jmp_buf (an
   array of a record, which must be complete where the array type is written)
   and fd_set (whose member glibc names fds_bits under _GNU_SOURCE, which
   Python.h defines before any header a compiled module includes). */
#include <stdio.h>
#include <setjmp.h>
#include <sys/select.h>

typedef void (*longjmp_fn)(jmp_buf env, int value);
struct io_state {
    FILE *stream;
    longjmp_fn jump;
    int count;
};
int state_count(const struct io_state *state);
int stream_is_null(FILE *stream);
int fds_count(const fd_set *set, int max);
