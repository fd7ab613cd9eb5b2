#include "c_library_types.h"

int state_count(const struct io_state *state) { return state->count; }
int stream_is_null(FILE *stream) { return stream == NULL; }
int fds_count(const fd_set *set, int max)
{
    int count = 0;
    for (int fd = 0; fd < max; fd++)
        count += FD_ISSET(fd, set) != 0;
    return count;
}
