import Foundation
import Testing
import WaymarkTestSupport

/// `api.group` (docs/api.md, "Who may connect"): the socket is 0660 with that group, and the
/// daemon serves the group's members besides its own user — tried with real users, switched
/// with setpriv(1): `nobody` with and without the group `users`.
@Suite struct APISocketGroupTests {
    static let canSwitchUsers = geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    static let users: UInt32 = 100  // Debian's `users` group

    /// curl as `nobody`, in `users` or in no group at all: the body and the HTTP status.
    static func curlAsNobody(inUsers: Bool, socket: String) async throws -> ProcessResult {
        try await runProcess(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=65534", "--regid=65534"] + (inUsers ? ["--groups=\(users)"] : ["--clear-groups"])
                + ["/usr/bin/curl", "-s", "-w", "\n%{http_code}", "--unix-socket", socket, "http://localhost/v1/health"])
    }

    @Test(.enabled(if: canSwitchUsers)) func membersOfTheGroupMayUseTheSocketOthersMayNot() async throws {
        let directory = try TemporaryDirectory()
        chmod(directory.url.path, 0o755)
        let folder = directory.path("run")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let socket = folder + "/api.sock"
        let configuration = try directory.write("waymark.yaml", "api:\n  socket: \(socket)\n  group: users\n")
        let daemon = try BackgroundProcess.waymark(["serve", "--config", configuration, "--gpsd", "127.0.0.1:9", "--db", directory.path("w.sqlite")])
        try await daemon.whileRunning {
            let up = try await BackgroundProcess.waitUntil(timeout: 20) { unixSocketAccepts(path: socket) }
            try #require(up, "\(daemon.stderr.suffix(2000))")
            var info = stat()
            #expect(stat(socket, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o660 && info.st_gid == Self.users, "mode \(String(info.st_mode & 0o777, radix: 8)), group \(info.st_gid)")

            let member = try await Self.curlAsNobody(inUsers: true, socket: socket)
            #expect(member.stdout.hasSuffix("\n200"), "\(member.stdout) \(member.stderr)")
            // The file mode keeps the others out before the daemon is asked (curl: cannot connect).
            let outsider = try await Self.curlAsNobody(inUsers: false, socket: socket)
            #expect(outsider.status == 7, "\(outsider.status) \(outsider.stdout)")
            // And with the mode loosened by mistake, the peer check still refuses them.
            chmod(socket, 0o666)
            let loosened = try await Self.curlAsNobody(inUsers: false, socket: socket)
            #expect(loosened.stdout.hasSuffix("\n403") && loosened.stdout.contains("forbidden-peer"), "\(loosened.stdout)")
        }
    }
}
