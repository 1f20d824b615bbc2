#ifndef RW_SPAWN_H
#define RW_SPAWN_H
#include <spawn.h>

/* posix_spawn_file_actions_addclosefrom_np (glibc >= 2.34), which glibc declares only under
   _GNU_SOURCE: a spawned child inherits no descriptor from `from` up. Returns 0 or an errno. */
int rw_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

/* malloc_trim(0) from <malloc.h>: returns free heap pages to the kernel; 1 if any were. */
int rw_malloc_trim(void);

#endif
