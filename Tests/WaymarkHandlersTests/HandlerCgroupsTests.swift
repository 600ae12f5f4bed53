import Testing
@testable import WaymarkHandlers

/// Where the daemon finds the `pids` controller (docs/handlers.md, "Limits"), from the kernel's
/// own files as they look on the machines it runs on.
@Suite struct HandlerCgroupsTests {
    /// Debian 12 in a container with the hybrid layout (this CI machine): v1 `pids` wins.
    static let hybridMounts = """
        31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
        35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
        39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
        41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw,nsdelegate
        """
    static let hybridCgroups = "8:pids:/runner\n4:memory:/process_api/d29e\n0::/runner\n"

    /// systemd on cgroup v2 only: a service's own cgroup.
    static let unifiedMounts = "30 24 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n"
    static let unifiedCgroups = "0::/system.slice/waymark.service\n"

    @Test func v1PidsIsPreferredInTheHybridLayout() {
        let own = HandlerCgroups.ownPidsCgroup(mountinfo: Self.hybridMounts, cgroup: Self.hybridCgroups)
        #expect(own?.path == "/sys/fs/cgroup/pids/runner")
        #expect(own?.unified == false)
    }

    /// Suspension freezes through the unified hierarchy beside v1 `pids`: the daemon's own
    /// folder in each.
    @Test func theHybridLayoutHasAFreezableFolderBesideThePidsOne() {
        let own = HandlerCgroups.ownFolders(mountinfo: Self.hybridMounts, cgroup: Self.hybridCgroups)
        #expect(own.v1Pids == "/sys/fs/cgroup/pids/runner")
        #expect(own.unified == "/sys/fs/cgroup/unified/runner")
        let v2 = HandlerCgroups.ownFolders(mountinfo: Self.unifiedMounts, cgroup: Self.unifiedCgroups)
        #expect(v2.v1Pids == nil && v2.unified == "/sys/fs/cgroup/system.slice/waymark.service")
    }

    @Test func aHandlersFreezableCgroupIsItsPidsOneUnderV2AndBesideItInTheHybridLayout() {
        let v2 = HandlerCgroups(root: "/sys/fs/cgroup/w/waymark-1", unified: true, freezerRoot: "/sys/fs/cgroup/w/waymark-1")
        #expect(v2.freezerPath(of: "a") == v2.path(of: "a"))
        let hybrid = HandlerCgroups(root: "/sys/fs/cgroup/pids/waymark-1", freezerRoot: "/sys/fs/cgroup/unified/waymark-1")
        #expect(hybrid.freezerPath(of: "a") == "/sys/fs/cgroup/unified/waymark-1/handler-a")
        #expect(hybrid.freezes)
        let none = HandlerCgroups(root: "/sys/fs/cgroup/pids/waymark-1")
        #expect(none.freezerPath(of: "a") == nil && !none.freezes)
        #expect(!none.freeze("a", true))
    }

    @Test func theUnifiedHierarchyIsUsedWhenItIsTheOnlyOne() {
        let own = HandlerCgroups.ownPidsCgroup(mountinfo: Self.unifiedMounts, cgroup: Self.unifiedCgroups)
        #expect(own?.path == "/sys/fs/cgroup/system.slice/waymark.service")
        #expect(own?.unified == true)
    }

    @Test func noPidsHierarchyGivesNothing() {
        let mounts = "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
        #expect(HandlerCgroups.ownPidsCgroup(mountinfo: mounts, cgroup: "4:memory:/x\n") == nil)
        #expect(HandlerCgroups.ownPidsCgroup(mountinfo: "", cgroup: "") == nil)
        #expect(HandlerCgroups.ownPidsCgroup(mountinfo: "garbage without a separator\n", cgroup: "0::/\n") == nil)
    }

    @Test func escapedMountPointsAreRead() {
        #expect(HandlerCgroups.unescapeMountField(#"/mnt/cg\040roups"#) == "/mnt/cg roups")
        #expect(HandlerCgroups.unescapeMountField(#"/a\134b"#) == #"/a\b"#)
        #expect(HandlerCgroups.unescapeMountField(#"/odd\04"#) == #"/odd\04"#)
    }

    @Test func eachHandlerHasAFolderWhoseNameCannotClimb() {
        let cgroups = HandlerCgroups(root: "/sys/fs/cgroup/pids/waymark-1")
        #expect(cgroups.path(of: "..") == "/sys/fs/cgroup/pids/waymark-1/handler-..")
        #expect(HandlerCgroups.instanceName("/var/lib/waymark/waymark.sqlite") == HandlerCgroups.instanceName("/var/lib/waymark/waymark.sqlite"))
        #expect(HandlerCgroups.instanceName("/a") != HandlerCgroups.instanceName("/b"))
    }
}
