#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "waymark_spawn.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

long long waymark_raise_descriptor_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    rlim_t before = limit.rlim_cur;
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    return (long long)before;
}

int waymark_clear_ambient_capabilities(void) { return prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); }

int waymark_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int waymark_pidfd_wait(int pidfd, int *code, int *signal) {
    siginfo_t info = {0};
    int result;
    do {
        result = waitid((idtype_t)P_PIDFD, (id_t)pidfd, &info, WEXITED);
    } while (result == -1 && errno == EINTR);
    if (result == -1) return -1;
    *code = info.si_code == CLD_EXITED ? info.si_status : -1;
    *signal = info.si_code == CLD_EXITED ? 0 : info.si_status;
    return 0;
}

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/// In the child: everything up to execve, each step a system call. Returns errno on failure.
static int waymark_child_setup(
    const char *directory, const char *output, int cgroup_procs, int freezer_procs, unsigned long long address_space,
    unsigned long long descriptors, int report) {
    if (cgroup_procs >= 0 && write(cgroup_procs, "0", 1) != 1) return errno;
    // Not fatal: outside its freezable cgroup (removed meanwhile) it is suspended by SIGSTOP.
    if (freezer_procs >= 0) {
        ssize_t joined = write(freezer_procs, "0", 1);
        (void)joined;
    }
    if (setsid() < 0) return errno;
    int in = open("/dev/null", O_RDONLY);
    if (in < 0 || dup2(in, 0) < 0) return errno;
    int out = open(output, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (out < 0 || dup2(out, 1) < 0 || dup2(1, 2) < 0) return errno;
    if (chdir(directory) != 0) return errno;
    if (address_space > 0) {
        struct rlimit limit = {address_space, address_space};
        if (setrlimit(RLIMIT_AS, &limit) != 0) return errno;
    }
    if (descriptors > 0) {
        struct rlimit limit;
        if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && descriptors <= limit.rlim_max) {
            limit.rlim_cur = descriptors;
            setrlimit(RLIMIT_NOFILE, &limit);
        }
    }
    // Every descriptor above 2 closes at execve (the report pipe already does).
    if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
        for (int fd = 3; fd < 65536; fd++) {
            if (fd != report) close(fd);
        }
    }
    struct sigaction defaults;
    memset(&defaults, 0, sizeof defaults);
    defaults.sa_handler = SIG_DFL;
    for (int signal = 1; signal < NSIG; signal++) sigaction(signal, &defaults, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    return 0;
}

pid_t waymark_spawn_process(
    const char *path, char *const argv[], char *const envp[], const char *directory, const char *output,
    int cgroup_procs, int freezer_procs, unsigned long long address_space, unsigned long long descriptors) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return -1;
    // No signal handler of the daemon may run in the child before its dispositions are reset.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    // fork() runs every library's pthread_atfork child handler before returning in the child,
    // and PROJ (loaded with SpatiaLite) registers one that closes its SQLite handles: in a child
    // forked while another thread held SQLite's memory mutex (the store writer, an API read),
    // that handler waits forever for a lock nobody will release, the child never reaches
    // execve, and the spawn never returns. A raw clone is fork without the handlers; the child
    // below makes only system calls, so it needs none of what they would reset.
    pid_t pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
    if (pid == 0) {
        close(report[0]);
        int error = waymark_child_setup(directory, output, cgroup_procs, freezer_procs, address_space, descriptors, report[1]);
        if (error == 0) {
            execve(path, argv, envp);
            error = errno;
        }
        ssize_t ignored = write(report[1], &error, sizeof error);
        (void)ignored;
        _exit(127);
    }
    int forkError = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(report[1]);
    if (pid < 0) {
        close(report[0]);
        errno = forkError;
        return -1;
    }
    int childError = 0;
    ssize_t got;
    while ((got = read(report[0], &childError, sizeof childError)) < 0 && errno == EINTR) {}
    close(report[0]);
    if (got == (ssize_t)sizeof childError) {
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
        errno = childError;
        return -1;
    }
    return pid;
}
