#ifndef PREPUSH_CPROCESSSUPPORT_H
#define PREPUSH_CPROCESSSUPPORT_H
#include <spawn.h>
#include <sys/types.h>

/// posix_spawn_file_actions_addchdir_np, which glibc declares only under _GNU_SOURCE (invisible to
/// Swift's importer). Returns ENOSYS where the C library lacks it (glibc before 2.29).
int prepush_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// Linux: makes this process a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so processes a stage
/// orphans are re-parented to prepush instead of init and can still be found and stopped.
/// Returns 0 on success, an errno value otherwise (ENOSYS elsewhere). prctl is variadic: Swift cannot call it.
int prepush_become_child_subreaper(void);

/// Linux: asks for a pipe buffer of `bytes` (fcntl F_SETPIPE_SZ, hidden behind _GNU_SOURCE), so a burst
/// of output never blocks the writer while prepush is busy. Returns the new size, or -1.
int prepush_set_pipe_capacity(int fd, int bytes);

/// macOS: fills `pids`, `parents` and `groups` with up to `capacity` processes of the system
/// (sysctl KERN_PROC_ALL). Returns how many, or -1. Linux reads /proc instead (returns -1 here).
int prepush_list_processes(pid_t *pids, pid_t *parents, pid_t *groups, int capacity);

#endif
