import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of the API's Unix socket (SO_PEERCRED: the connecting process's
/// PID, user and group at connect time). The socket's mode (0600, in a 0700 folder) already
/// keeps other users out; the check is the second lock behind it, for a folder whose mode was
/// loosened or a socket handed on.
struct PeerCredentials: Sendable, Equatable {
    // Laid out as Linux's `struct ucred` (pid_t, uid_t, gid_t), which Swift does not import.
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0

    /// The peer of `channel`, nil when it is not a Unix socket or the kernel will not say.
    static func of(_ channel: any Channel) async -> PeerCredentials? {
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let future: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: .socket, name: NIOBSDSocket.Option(rawValue: SO_PEERCRED))
        return try? await future.get()
    }

    /// The daemon's own user, or root.
    static func isTrusted(_ peer: PeerCredentials) -> Bool { peer.uid == geteuid() || peer.uid == 0 }

    /// Whether the peer is in `group`: its group at connect time, or one of its supplementary
    /// groups (the `Groups:` line of /proc/PID/status, read as it connects).
    static func isMember(_ peer: PeerCredentials, of group: UInt32) -> Bool {
        if peer.gid == group { return true }
        return supplementaryGroups(statusText: (try? String(contentsOfFile: "/proc/\(peer.pid)/status", encoding: .utf8)) ?? "")
            .contains(group)
    }

    /// The `Groups:` line of a /proc/PID/status text. Pure, for tests.
    static func supplementaryGroups(statusText: String) -> [UInt32] {
        guard let line = statusText.split(separator: "\n").first(where: { $0.hasPrefix("Groups:") }) else { return [] }
        return line.dropFirst("Groups:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { UInt32($0) }
    }
}
