import Foundation
import Testing
import WaymarkTestSupport

@testable import WaymarkAPI

/// Whose sockets the CLI talks to (`SocketPeerRule`, docs/security.md): its own user's and
/// root's always; another user's only on a path the user named, in a folder that user (or root)
/// owns, that no one else may write, inside a folder not open to every user.
@Suite struct SocketPeerRuleTests {
    static let nobody: UInt32 = 65534
    static let canChown = geteuid() == 0

    @Test func ownUserAndRootAreTrustedAnywhere() {
        for rule in [SocketPeerRule.ownUserOrRoot, .ownUserRootOrFolderOwner] {
            #expect(rule.refusal(peer: geteuid(), path: "/tmp/anything/api.sock") == nil)
            #expect(rule.refusal(peer: 0, path: "/tmp/anything/api.sock") == nil)
        }
    }

    @Test(.enabled(if: canChown)) func anotherUsersSocketOnlyInAFolderOnlyThatUserControls() throws {
        let directory = try TemporaryDirectory()
        chmod(directory.url.path, 0o755)
        let folder = directory.path("run")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o750])
        chown(folder, Self.nobody, Self.nobody)
        let socket = folder + "/api.sock"

        #expect(SocketPeerRule.ownUserRootOrFolderOwner.refusal(peer: Self.nobody, path: socket) == nil)
        let strict = SocketPeerRule.ownUserOrRoot.refusal(peer: Self.nobody, path: socket)
        #expect(strict?.contains("served by user 65534") == true, "\(strict ?? "accepted")")
        // Someone else could have put it there: the folder is writable by its group…
        chmod(folder, 0o770)
        #expect(SocketPeerRule.ownUserRootOrFolderOwner.refusal(peer: Self.nobody, path: socket) != nil)
        chmod(folder, 0o750)
        // …the folder belongs to a third user…
        chown(folder, 1234, 1234)
        #expect(SocketPeerRule.ownUserRootOrFolderOwner.refusal(peer: Self.nobody, path: socket) != nil)
        chown(folder, Self.nobody, Self.nobody)
        // …or it sits in a folder every user may create things in, as /tmp/waymark-UID does.
        chmod(directory.url.path, 0o1777)
        let shared = SocketPeerRule.ownUserRootOrFolderOwner.refusal(peer: Self.nobody, path: socket)
        #expect(shared?.contains("not one only that user controls") == true, "\(shared ?? "accepted")")
    }
}
