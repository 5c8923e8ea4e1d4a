#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include "CProcessSupport.h"
#if defined(__linux__)
#include <sys/prctl.h>
#endif
#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif

int prepush_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
#if defined(__APPLE__) || (defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29)))
    return posix_spawn_file_actions_addchdir_np(actions, path);
#else
    (void)actions;
    (void)path;
    return ENOSYS;
#endif
}

int prepush_become_child_subreaper(void) {
#if defined(__linux__) && defined(PR_SET_CHILD_SUBREAPER)
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : errno;
#else
    return ENOSYS;
#endif
}

int prepush_set_pipe_capacity(int fd, int bytes) {
#if defined(__linux__) && defined(F_SETPIPE_SZ)
    return fcntl(fd, F_SETPIPE_SZ, bytes);
#else
    (void)fd;
    (void)bytes;
    return -1;
#endif
}

int prepush_list_processes(pid_t *pids, pid_t *parents, pid_t *groups, int capacity) {
#if defined(__APPLE__)
    int mib[3] = {CTL_KERN, KERN_PROC, KERN_PROC_ALL};
    size_t size = 0;
    if (sysctl(mib, 3, NULL, &size, NULL, 0) != 0) return -1;
    size += size / 4;  // processes may start between the two calls
    struct kinfo_proc *all = malloc(size);
    if (all == NULL) return -1;
    if (sysctl(mib, 3, all, &size, NULL, 0) != 0) { free(all); return -1; }
    int count = (int)(size / sizeof(struct kinfo_proc));
    if (count > capacity) count = capacity;
    for (int i = 0; i < count; i++) {
        pids[i] = all[i].kp_proc.p_pid;
        parents[i] = all[i].kp_eproc.e_ppid;
        groups[i] = all[i].kp_eproc.e_pgid;
    }
    free(all);
    return count;
#else
    (void)pids; (void)parents; (void)groups; (void)capacity;
    return -1;
#endif
}
