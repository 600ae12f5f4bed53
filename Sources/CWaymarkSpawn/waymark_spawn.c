#define _GNU_SOURCE
#include <spawn.h>
#include <sys/resource.h>
#include "waymark_spawn.h"

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
