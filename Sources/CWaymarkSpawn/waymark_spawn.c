#define _GNU_SOURCE
#include <errno.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "waymark_spawn.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

int waymark_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int waymark_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

short waymark_spawn_setsid_flag(void) { return POSIX_SPAWN_SETSID; }

int waymark_limit_address_space(pid_t pid, unsigned long long bytes) {
    struct rlimit limit = {bytes, bytes};
    return prlimit(pid, RLIMIT_AS, &limit, NULL);
}

long long waymark_raise_descriptor_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    rlim_t before = limit.rlim_cur;
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    return (long long)before;
}

int waymark_limit_descriptors(pid_t pid, unsigned long long soft) {
    struct rlimit limit;
    if (prlimit(pid, RLIMIT_NOFILE, NULL, &limit) != 0) return -1;
    if (soft < limit.rlim_max) limit.rlim_cur = soft;
    return prlimit(pid, RLIMIT_NOFILE, &limit, NULL);
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
