#define _GNU_SOURCE
#include "rw_spawn.h"

int rw_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

#include <malloc.h>

int rw_malloc_trim(void) { return malloc_trim(0); }
