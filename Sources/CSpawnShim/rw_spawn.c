#define _GNU_SOURCE
#include "rw_spawn.h"

int rw_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

#include <malloc.h>

int rw_malloc_trim(void) { return malloc_trim(0); }

int rw_malloc_top_pad(int bytes) { return mallopt(M_TOP_PAD, bytes); }

#include <pthread.h>

int rw_name_current_thread(const char *name) { return pthread_setname_np(pthread_self(), name); }

int rw_current_thread_name(char *buf, int size) { return pthread_getname_np(pthread_self(), buf, (size_t)size); }
