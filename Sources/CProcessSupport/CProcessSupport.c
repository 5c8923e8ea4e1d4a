#define _GNU_SOURCE
#include <errno.h>
#include <spawn.h>
#include "CProcessSupport.h"

int prepush_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
#if defined(__APPLE__) || (defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29)))
    return posix_spawn_file_actions_addchdir_np(actions, path);
#else
    (void)actions;
    (void)path;
    return ENOSYS;
#endif
}
