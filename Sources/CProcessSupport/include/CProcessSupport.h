#ifndef PREPUSH_CPROCESSSUPPORT_H
#define PREPUSH_CPROCESSSUPPORT_H
#include <spawn.h>

/// posix_spawn_file_actions_addchdir_np, which glibc declares only under _GNU_SOURCE (invisible to
/// Swift's importer). Returns ENOSYS where the C library lacks it (glibc before 2.29).
int prepush_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path);

#endif
