#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include "CProcessSupport.h"
#include <signal.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/wait.h>
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

int prepush_spawn_with_parent_death_signal(pid_t *pid, const char *path, int search_path, char *const argv[],
                                           char *const envp[], const char *stdin_path, int out_fd, int err_fd,
                                           const char *directory, int death_signal) {
#if defined(__linux__)
    // A close-on-exec pipe carries the child's errno when anything before exec fails; a successful
    // exec closes it, and the parent reads end of file.
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return errno;
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) {
        int saved = errno;
        close(report[0]);
        close(report[1]);
        return saved;
    }
    if (child == 0) {
        // Only async-signal-safe calls from here to exec: the parent has other threads.
        int failure = 0;
        setpgid(0, 0);
        sigset_t empty;
        sigemptyset(&empty);
        sigprocmask(SIG_SETMASK, &empty, NULL);
        int defaults[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD};
        for (unsigned i = 0; i < sizeof defaults / sizeof defaults[0]; i++) signal(defaults[i], SIG_DFL);
        // Told when prepush dies (kill -9 included); if it already has, do not start at all.
        if (prctl(PR_SET_PDEATHSIG, death_signal, 0, 0, 0) != 0 || getppid() != parent) _exit(127);
        int input = open(stdin_path, O_RDONLY);
        if (input < 0) { failure = errno; goto fail; }
        if (input != 0) { dup2(input, 0); close(input); }
        if (dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0) { failure = errno; goto fail; }
        if (directory != NULL && chdir(directory) != 0) { failure = errno; goto fail; }
        if (search_path) execvpe(path, argv, envp); else execve(path, argv, envp);
        failure = errno;
    fail:
        (void)!write(report[1], &failure, sizeof failure);
        _exit(127);
    }
    close(report[1]);
    // Also set from the parent, so the group exists before anyone signals it.
    setpgid(child, child);
    int failure = 0;
    ssize_t got;
    do { got = read(report[0], &failure, sizeof failure); } while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got == (ssize_t)sizeof failure && failure != 0) {
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
        return failure;
    }
    *pid = child;
    return 0;
#else
    (void)pid; (void)path; (void)search_path; (void)argv; (void)envp; (void)stdin_path;
    (void)out_fd; (void)err_fd; (void)directory; (void)death_signal;
    return ENOSYS;
#endif
}

static int watched_runs = 0;

void prepush_watched_runs_add(int delta) {
    __atomic_add_fetch(&watched_runs, delta, __ATOMIC_SEQ_CST);
}

int prepush_watched_runs(void) {
    return __atomic_load_n(&watched_runs, __ATOMIC_SEQ_CST);
}

void prepush_exit_interrupted(int signal_number) {
    static const char message[] = "prepush: interrupted\n";
    ssize_t written = write(2, message, sizeof message - 1);
    (void)written;
    _exit(128 + signal_number);
}
