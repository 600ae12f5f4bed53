// glibc's GNU extensions for posix_spawn that Swift cannot see without _GNU_SOURCE.
#ifndef WAYMARK_SPAWN_H
#define WAYMARK_SPAWN_H

#include <spawn.h>
#include <sys/types.h>

/// posix_spawn_file_actions_addclosefrom_np: close every descriptor from `from` up in the child.
int waymark_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from);
/// posix_spawn_file_actions_addchdir_np: the child's working directory.
int waymark_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);
/// POSIX_SPAWN_SETSID: start the child in a new session (and process group).
short waymark_spawn_setsid_flag(void);
/// prlimit(pid, RLIMIT_AS, …): cap the child's address space; 0 or -1 with errno.
int waymark_limit_address_space(pid_t pid, unsigned long long bytes);

/// RLIMIT_NOFILE: the soft limit raised to the hard one (a daemon serving many connections);
/// the soft limit before, or -1 with errno.
long long waymark_raise_descriptor_limit(void);
/// prlimit(pid, RLIMIT_NOFILE, …): the child's soft descriptor limit set to `soft` (the hard
/// one kept); 0 or -1 with errno.
int waymark_limit_descriptors(pid_t pid, unsigned long long soft);

/// prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL): capabilities the daemon was given as ambient
/// ones (systemd's AmbientCapabilities=, for Bluetooth) stop passing to the programs it
/// executes; the daemon keeps them. 0 or -1 with errno.
int waymark_clear_ambient_capabilities(void);

/// pidfd_open(2): a descriptor for process `pid`, readable once it has exited; -1 with errno.
int waymark_pidfd_open(pid_t pid);
/// waitid(P_PIDFD, pidfd, WEXITED): reaps the process. 0 with `*code` (exit status, or -1)
/// and `*signal` (terminating signal, or 0) set; -1 with errno.
int waymark_pidfd_wait(int pidfd, int *code, int *signal);

#endif
