import WaymarkCore

#if canImport(Glibc)
import Glibc
#endif

/// Which daemons the CLI talks to over a Unix socket: it checks who is listening (SO_PEERCRED)
/// before it sends a byte, so a socket another local user planted where the daemon's would be
/// (the shared `/tmp/waymark-UID` folder, used when there is no `XDG_RUNTIME_DIR`) receives no
/// region file, handler argument or password (docs/security.md, "Other local users").
public enum SocketPeerRule: Sendable, Equatable {
    /// A daemon of this user's own, or root's (the system service). The rule for the default
    /// socket path.
    case ownUserOrRoot
    /// Also a daemon of another user (`api.group`, docs/configuration.md) when its socket's
    /// folder is that user's (or root's), no one else may write to it, and the folder that holds
    /// it is not open to every user: a path the user named, in a place only its owner controls.
    case ownUserRootOrFolderOwner

    /// Why the peer `uid` is not to be trusted for the socket at `path`; nil when it is.
    func refusal(peer uid: UInt32, path: String) -> String? {
        let me = geteuid()
        if uid == me || uid == 0 { return nil }
        let refused = "the socket \(path) is served by user \(uid), not by you (\(me)) or root"
        guard self == .ownUserRootOrFolderOwner else {
            return refused + "; it may be another user's trap. Pass --socket with your daemon's socket, or set XDG_RUNTIME_DIR"
        }
        let folder = WaymarkCore.folder(of: path)
        guard let owner = Self.status(of: folder), owner.st_uid == uid || owner.st_uid == 0, owner.st_mode & 0o022 == 0,
            let above = Self.status(of: WaymarkCore.folder(of: folder)), above.st_mode & 0o002 == 0
        else {
            return refused + ", and its folder \(folder) is not one only that user controls"
        }
        return nil
    }

    private static func status(of path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    /// The user at the other end of the connected Unix socket `fd`, nil when the kernel will not say.
    static func peerUser(of fd: Int32) -> UInt32? {
        var peer = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &length) == 0, Int(length) == MemoryLayout<PeerCredentials>.size else {
            return nil
        }
        return peer.uid
    }
}
