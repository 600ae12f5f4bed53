// What Swift cannot do itself for the daemon's processes: the handler spawn, limits, capabilities, pidfds.
#ifndef WAYMARK_SPAWN_H
#define WAYMARK_SPAWN_H

#include <sys/types.h>

/// RLIMIT_NOFILE: the soft limit raised to the hard one (a daemon serving many connections);
/// the soft limit before, or -1 with errno.
long long waymark_raise_descriptor_limit(void);
/// prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL): capabilities the daemon was given as ambient
/// ones (systemd's AmbientCapabilities=, for Bluetooth) stop passing to the programs it
/// executes; the daemon keeps them. 0 or -1 with errno.
int waymark_clear_ambient_capabilities(void);

/// pidfd_open(2): a descriptor for process `pid`, readable once it has exited; -1 with errno.
int waymark_pidfd_open(pid_t pid);
/// waitid(P_PIDFD, pidfd, WEXITED): reaps the process. 0 with `*code` (exit status, or -1)
/// and `*signal` (terminating signal, or 0) set; -1 with errno.
int waymark_pidfd_wait(int pidfd, int *code, int *signal);

/// Starts a handler: fork, then in the child only async-signal-safe calls before execve —
/// join a cgroup (write "0" to `cgroup_procs`, an open cgroup.procs, when >= 0; the same to
/// `freezer_procs`, a second hierarchy's, when >= 0, where a failure is not fatal), start a new
/// session, stdin from /dev/null, stdout and stderr appended to `output` (created 0600), every
/// other descriptor closed, `directory` as working directory, RLIMIT_AS to `address_space` and
/// the soft RLIMIT_NOFILE to `descriptors` when non-zero, default signal dispositions and an
/// empty mask — so nothing the program does, not even its first fork, happens outside its
/// cgroup or limits. Returns the child's pid, or -1 with errno (the child's, when its set-up or
/// execve failed; that child is reaped here).
pid_t waymark_spawn_process(
    const char *path, char *const argv[], char *const envp[], const char *directory, const char *output,
    int cgroup_procs, int freezer_procs, unsigned long long address_space, unsigned long long descriptors);

#endif
