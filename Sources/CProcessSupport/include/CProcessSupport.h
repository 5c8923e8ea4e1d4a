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

/// Linux: starts `path` (looked up in PATH when `search_path`) in a new process group, with an empty
/// signal mask, default dispositions, stdin from `stdin_path`, stdout/stderr on the given descriptors,
/// in `directory` (NULL: here), and PR_SET_PDEATHSIG set to `death_signal`: if prepush is killed
/// (kill -9 included), the stage's first process is told instead of running on unseen. posix_spawn
/// cannot set it, so this forks. Returns 0 and sets `pid`, or an errno value (ENOSYS elsewhere).
int prepush_spawn_with_parent_death_signal(pid_t *pid, const char *path, int search_path, char *const argv[],
                                           char *const envp[], const char *stdin_path, int out_fd, int err_fd,
                                           const char *directory, int death_signal);

/// Runs that stop their process tree themselves when an interrupting signal arrives (a stage):
/// counted atomically, so a signal handler can tell whether one is going on.
void prepush_watched_runs_add(int delta);
int prepush_watched_runs(void);

/// For a signal handler when no watched run is going on: writes "prepush: interrupted" to standard
/// error and ends the process at once with 128 + `signal_number`, as a shell reports it. Only
/// async-signal-safe calls.
void prepush_exit_interrupted(int signal_number);

#endif
