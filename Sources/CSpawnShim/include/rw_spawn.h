#ifndef RW_SPAWN_H
#define RW_SPAWN_H
#include <spawn.h>

/* posix_spawn_file_actions_addclosefrom_np (glibc >= 2.34), which glibc declares only under
   _GNU_SOURCE: a spawned child inherits no descriptor from `from` up. Returns 0 or an errno. */
int rw_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

/* malloc_trim(0) from <malloc.h>: returns free heap pages to the kernel; 1 if any were. */
int rw_malloc_trim(void);

/* mallopt(M_TOP_PAD, bytes) from <malloc.h>: the heap grows by at least `bytes` beyond each
   request. Returns 1 if the setting was taken. */
int rw_malloc_top_pad(int bytes);

/* pthread_setname_np(pthread_self(), name), declared only under _GNU_SOURCE: names the calling
   thread (at most 15 bytes and the NUL). Returns 0 or an errno value. */
int rw_name_current_thread(const char *name);

/* pthread_getname_np of the calling thread into buf (size bytes). Returns 0 or an errno value. */
int rw_current_thread_name(char *buf, int size);

#endif
