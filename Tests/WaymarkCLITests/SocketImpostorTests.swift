import Foundation
import Testing
import WaymarkTestSupport

/// Issue 48, finding 9: without `XDG_RUNTIME_DIR` the CLI looks for the daemon in
/// `${TMPDIR:-/tmp}/waymark-UID`, a place any local user can create first. A socket planted
/// there by another user (here `nobody`, switched with setpriv(1)) must receive nothing: no
/// region file, no handler arguments, no password (docs/security.md, "Other local users").
@Suite struct SocketImpostorTests {
    /// A fake daemon as `nobody`: answers every request 200 and appends what it received to
    /// `received`, so a client that trusted it leaves its request there.
    static let impostor = """
        import os, socket, sys
        path, received = sys.argv[1], sys.argv[2]
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        os.chmod(path, 0o777)
        server.listen(8)
        print("ready", flush=True)
        while True:
            connection, _ = server.accept()
            connection.settimeout(2)
            data = b""
            try:
                while b"\\r\\n\\r\\n" not in data:
                    chunk = connection.recv(65536)
                    if not chunk: break
                    data += chunk
            except OSError:
                pass
            with open(received, "ab") as out:
                out.write(data)
            body = b'{"status":"ok"}'
            try:
                connection.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nContent-Length: %d\\r\\nConnection: close\\r\\n\\r\\n%s" % (len(body), body))
            except OSError:
                pass  # a client that connected and left (the readiness probe)
            connection.close()
        """

    @Test(.enabled(if: APISocketGroupTests.canSwitchUsers)) func aSocketPlantedByAnotherUserReceivesNothing() async throws {
        let directory = try TemporaryDirectory()
        chmod(directory.url.path, 0o777)  // a shared temporary folder, as /tmp is
        // What another user prepares before the victim's first command: the folder the CLI
        // will look in, theirs, with their socket in it.
        let folder = directory.path("waymark-\(geteuid())")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        chown(folder, 65534, 65534)
        let received = directory.path("received")
        try #require(FileManager.default.createFile(atPath: received, contents: nil))
        chmod(received, 0o666)
        let script = try directory.write("impostor.py", Self.impostor)
        let fake = try BackgroundProcess(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", script, folder + "/api.sock", received])
        try await fake.whileRunning {
            let up = try await BackgroundProcess.waitUntil(timeout: 20) { unixSocketAccepts(path: folder + "/api.sock") }
            try #require(up, "the impostor never listened: \(fake.stderr.suffix(1000))")

            var environment = ProcessInfo.processInfo.environment
            environment["XDG_RUNTIME_DIR"] = nil
            environment["TMPDIR"] = directory.url.path
            environment["HOME"] = directory.path("home")
            let regions = try directory.write("secret.geojson", NetworkDevicesTests.Rig.plaza)
            for arguments in [["status"], ["regions", "import", regions], ["handlers", "add", "h", "--exec", "/bin/true", "--significant", "--", "--password", "hunter2"]] {
                let result = try await runProcess(ProjectPaths.waymarkExecutable, arguments, environment: environment)
                #expect(result.status != 0, "waymark \(arguments.joined(separator: " ")) trusted the impostor: \(result.stdout)")
                #expect(result.stderr.contains("served by user 65534"), "\(arguments): \(result.stderr)")
            }
            let leaked = try String(contentsOfFile: received, encoding: .utf8)
            #expect(leaked.isEmpty, "the impostor received: \(leaked.prefix(500))")
        }
    }
}
