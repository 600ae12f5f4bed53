import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Testing
@testable import WaymarkAPI
import WaymarkTestSupport

/// The real server on a Unix socket (and loopback TCP), queried with curl and with
/// `UnixSocketHTTPClient`.
@Suite struct APIServerTests {
    /// Runs an `APIServer` over `backend` in a service group until `body` returns, then shuts
    /// it down gracefully and checks it stopped and removed its socket.
    static func withServer(
        _ backend: FakeBackend, in directory: TemporaryDirectory, socketName: String = "run/api.sock", tcp: Bool = false,
        heartbeat: Duration = .seconds(15), admits: (@Sendable (PeerCredentials) -> Bool)? = nil,
        _ body: @Sendable (APIServer.ListeningAddresses) async throws -> Void
    ) async throws {
        let (ready, readyContinuation) = AsyncStream<APIServer.ListeningAddresses>.makeStream()
        var configuration = APIServer.Configuration(
            socketPath: directory.path(socketName), tcpPort: tcp ? 0 : nil, token: tcp ? "t0ken" : nil,
            heartbeatInterval: heartbeat, onReady: { readyContinuation.yield($0) })
        if let admits { configuration.admitsPeer = admits }
        let server = try APIServer(configuration: configuration, backend: backend, logger: Logger(label: "test"))
        let group = ServiceGroup(configuration: .init(services: [server], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ready.makeAsyncIterator()
            let addresses = try #require(await iterator.next())
            do {
                try await body(addresses)
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(!FileManager.default.fileExists(atPath: configuration.socketPath), "socket left behind")
    }

    /// Runs curl; `runProcess` waits for it on a thread of its own, so the server the request
    /// is waiting for keeps the cooperative pool (two threads on this machine).
    static func curl(_ arguments: [String]) async throws -> ProcessResult {
        try await runProcess(URL(fileURLWithPath: "/usr/bin/curl"), ["-sS", "--max-time", "20"] + arguments)
    }

    /// The client is blocking: keep it off the cooperative pool.
    static func request(_ client: UnixSocketHTTPClient, _ path: String, method: String = "GET", body: [UInt8]? = nil)
        async throws -> (status: Int, body: [UInt8])
    {
        try await onOwnThread { try client.request(method: method, path: path, body: body) }
    }

    @Test func unixSocketServesCurlAndTheClientWithMode0600() async throws {
        let directory = try TemporaryDirectory()
        try await Self.withServer(FakeBackend(), in: directory) { addresses in
            let path = addresses.socketPath
            #expect(path == directory.path("run/api.sock"))
            let socketMode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(socketMode == 0o600)
            let directoryMode = try FileManager.default.attributesOfItem(atPath: directory.path("run"))[.posixPermissions] as? Int
            #expect(directoryMode == 0o700)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("run")) == ["api.sock"])

            let health = try await Self.curl(["--unix-socket", path, "http://localhost/v1/health"])
            #expect(health.status == 0)
            #expect(health.stdout == "{\"status\":\"ok\",\"tokenRequired\":false}")
            let status = try await Self.curl(["--unix-socket", path, "-w", "\n%{http_code}", "http://localhost/v1/regions/nowhere"])
            #expect(status.stdout.hasSuffix("\n404"))

            let client = UnixSocketHTTPClient(socketPath: path)
            let last = try await Self.request(client, "/v1/fixes/last")
            #expect(last.status == 200)
            #expect(String(decoding: last.body, as: UTF8.self) == FakeBackend.sampleHistory[4].json)
            let created = try await Self.request(
                client, "/v1/regions", method: "POST", body: Array(APIRouterTests.importBody.utf8))
            #expect(created.status == 201)
            let deleted = try await Self.request(client, "/v1/regions/school", method: "DELETE")
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            // A body larger than one read, streamed by the server in chunks.
            let metrics = try await Self.request(client, "/metrics")
            #expect(String(decoding: metrics.body, as: UTF8.self).contains("waymark_regions 3"))
        }
    }

    /// A long query string gets the API's JSON error (414) instead of the HTTP decoder's bare
    /// 400; only a request head past 256 KiB still gets that.
    @Test func aLongRequestTargetIsAJSONError() async throws {
        let directory = try TemporaryDirectory()
        try await Self.withServer(FakeBackend(), in: directory) { addresses in
            let path = addresses.socketPath
            let long = try await Self.curl(
                ["--unix-socket", path, "-w", "\n%{http_code}", "http://localhost/v1/status?a=" + String(repeating: "a", count: 100_000)])
            #expect(long.stdout.hasSuffix("\n414"), "\(long.stdout.suffix(300))")
            #expect(long.stdout.contains(#"{"error":{"code":"uri-too-long","message":"the request target has 100013 bytes; at most 16384"}}"#))
            // Refused by the listener before the router: the security headers all the same (issue 48).
            let head = try await Self.curl(["--unix-socket", path, "-D", "-", "-o", "/dev/null", "http://localhost/v1/status?a=" + String(repeating: "a", count: 100_000)])
            #expect(head.stdout.lowercased().contains("content-security-policy: default-src 'self'"), "\(head.stdout)")
            #expect(head.stdout.lowercased().contains("x-content-type-options: nosniff"), "\(head.stdout)")
            let fine = try await Self.curl(
                ["--unix-socket", path, "-o", "/dev/null", "-w", "%{http_code}", "http://localhost/v1/health?a=" + String(repeating: "a", count: 16_000)])
            #expect(fine.stdout == "200")
            // Longer than one command-line argument may be: a raw request.
            let huge = try await runPython(
                """
                import socket, sys
                s = socket.socket(socket.AF_UNIX)
                s.connect(sys.argv[1])
                s.sendall(b"GET /v1/health?a=" + b"a" * 300000 + b" HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
                print(s.recv(100).split(b"\\r\\n")[0].decode())
                """, [path])
            #expect(huge.stdout.hasPrefix("HTTP/1.1 400"), "\(huge.stdout) \(huge.stderr)")
        }
    }

    /// The Unix socket asks the kernel who connected (SO_PEERCRED) and serves only whom its
    /// rule admits — by default the daemon's own user and root.
    @Test func theSocketServesOnlyThePeersItsRuleAdmits() async throws {
        let directory = try TemporaryDirectory()
        let seen = Mutex<[PeerCredentials]>([])
        try await Self.withServer(FakeBackend(), in: directory, admits: { peer in
            seen.withLock { $0.append(peer) }
            return peer.uid == 4_000_000_000  // nobody real
        }) { addresses in
            let refused = try await Self.curl(["--unix-socket", addresses.socketPath, "-w", "\n%{http_code}", "http://localhost/v1/health"])
            #expect(refused.stdout.hasSuffix("\n403"), "\(refused.stdout)")
            #expect(refused.stdout.contains(#""code":"forbidden-peer""#))
        }
        let peer = try #require(seen.withLock { $0.first })
        #expect(peer.uid == geteuid() && peer.gid == getegid() && peer.pid > 0)
        #expect(PeerCredentials.isTrusted(peer))
        #expect(!PeerCredentials.isTrusted(PeerCredentials(pid: 1, uid: 4_000_000_000, gid: 0)))
    }

    @Test func supplementaryGroupsAreReadFromProcStatus() {
        let status = "Name:\tcurl\nUid:\t65534\t65534\t65534\t65534\nGid:\t65534\t65534\t65534\t65534\nGroups:\t100 4242 \nNStgid:\t7\n"
        #expect(PeerCredentials.supplementaryGroups(statusText: status) == [100, 4242])
        #expect(PeerCredentials.supplementaryGroups(statusText: "Groups:\t\n").isEmpty)
        #expect(PeerCredentials.supplementaryGroups(statusText: "").isEmpty)
        // This process is in its own group.
        let me = PeerCredentials(pid: getpid(), uid: 4_000_000_000, gid: getegid())
        #expect(PeerCredentials.isMember(me, of: getegid()))
        #expect(!PeerCredentials.isMember(PeerCredentials(pid: getpid(), uid: 4_000_000_000, gid: 4_000_000_000), of: 4_000_000_001))
    }

    @Test func clientSaysNoDaemonWhenNothingListens() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("api.sock")
        #expect(throws: UnixSocketHTTPClientError(.noDaemon, "no daemon at \(path) (No such file or directory)", path: path)) {
            try UnixSocketHTTPClient(socketPath: path).request(path: "/v1/health")
        }
        // A stale socket file (its daemon was killed): refused, also "no daemon".
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        close(fd)
        #expect(performing: { try UnixSocketHTTPClient(socketPath: path).request(path: "/v1/health") }, throws: {
            ($0 as? UnixSocketHTTPClientError)?.code == .noDaemon
        })
    }

    @Test func staleSocketIsReplacedAndALiveOneRefused() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("api.sock")
        // Stale: a socket file nobody listens on.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
        #expect(FileManager.default.fileExists(atPath: path))

        try await Self.withServer(FakeBackend(), in: directory, socketName: "api.sock") { addresses in
            let health = try await Self.request(UnixSocketHTTPClient(socketPath: addresses.socketPath), "/v1/health")
            #expect(health.status == 200)
            // A second daemon on the same path must not start.
            let second = try APIServer(
                configuration: .init(socketPath: path), backend: FakeBackend(), logger: Logger(label: "second"))
            await #expect(performing: { try await second.run() }, throws: {
                ($0 as? APIServerError)?.code == .socketInUse
            })
            // …and must not have disturbed the first.
            #expect(try await Self.request(UnixSocketHTTPClient(socketPath: path), "/v1/health").status == 200)
        }

        try directory.write("not-a-socket", "x")
        let occupied = try APIServer(
            configuration: .init(socketPath: directory.path("not-a-socket")), backend: FakeBackend(), logger: Logger(label: "t"))
        await #expect(performing: { try await occupied.run() }, throws: { ($0 as? APIServerError)?.code == .socketPath })
    }

    @Test func tcpLoopbackNeedsTheBearerToken() async throws {
        #expect(throws: APIServerError.self) {
            try APIServer(configuration: .init(socketPath: "/tmp/x.sock", tcpPort: 0), backend: FakeBackend(), logger: Logger(label: "t"))
        }
        let directory = try TemporaryDirectory()
        try await Self.withServer(FakeBackend(), in: directory, tcp: true) { addresses in
            let port = try #require(addresses.tcpPort)
            #expect(port > 0)
            let url = "http://127.0.0.1:\(port)/v1/status"
            let without = try await Self.curl(["-w", "\n%{http_code}", url])
            #expect(without.stdout.hasSuffix("\n401"))
            #expect(without.stdout.contains("\"code\":\"unauthorized\""))
            let wrong = try await Self.curl(["-w", "\n%{http_code}", "-H", "Authorization: Bearer nope", url])
            #expect(wrong.stdout.hasSuffix("\n401"))
            let with = try await Self.curl(["-w", "\n%{http_code}", "-H", "Authorization: Bearer t0ken", url])
            #expect(with.stdout.hasSuffix("\n200"))
            #expect(with.stdout.contains("\"version\":\"0.1.0-test\""))
            // The Unix socket needs no token.
            let unix = try await Self.curl(["--unix-socket", addresses.socketPath, "-w", "\n%{http_code}", "http://localhost/v1/status"])
            #expect(unix.stdout.hasSuffix("\n200"))
        }
    }

    @Test func streamSendsLiveEntriesAsServerSentEvents() async throws {
        let directory = try TemporaryDirectory()
        let backend = FakeBackend()
        try await Self.withServer(backend, in: directory, heartbeat: .milliseconds(50)) { addresses in
            // curl prints the stream as it comes, so the test can wait for a heartbeat rather than
            // guess how long one takes on a loaded machine.
            let curl = try BackgroundProcess(
                URL(fileURLWithPath: "/usr/bin/curl"),
                ["-sS", "-N", "--max-time", "30", "-w", "\n%{http_code}", "--unix-socket", addresses.socketPath, "http://localhost/v1/stream"])
            var subscriptions = backend.subscriptions.makeAsyncIterator()
            _ = await subscriptions.next()
            #expect(try await Self.eventually { curl.stdout.contains(": heartbeat\n\n") }, "\(curl.stdout)")
            backend.push(FakeBackend.fix(50, latitude: 52.5, longitude: 4.5))
            backend.push(FakeBackend.event(51, region: "park", transition: "exit"))
            backend.finishLive()
            // The stream ends with the live feed; curl then writes the status code.
            #expect(try await Self.eventually { curl.stdout.hasSuffix("\n200") }, "\(curl.stdout) \(curl.stderr)")
            let text = curl.stdout
            let events = text.components(separatedBy: "\n\n").filter { $0.hasPrefix("event:") }
            #expect(events == [
                "event: fix\ndata: \(FakeBackend.fix(50, latitude: 52.5, longitude: 4.5).json)",
                "event: event\ndata: \(FakeBackend.event(51, region: "park", transition: "exit").json)",
            ])
            #expect(text.hasPrefix(": connected\n\n"))
        }
    }

    /// Polls `condition` every 20 ms for up to 20 s without blocking a thread of the pool.
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    /// A server over `backend` in a service group: `body` gets its addresses and the group (to
    /// shut it down); returns once the group has finished.
    static func serving(
        _ backend: FakeBackend, _ body: @escaping @Sendable (APIServer.ListeningAddresses, ServiceGroup) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        let (ready, readyContinuation) = AsyncStream<APIServer.ListeningAddresses>.makeStream()
        let server = try APIServer(
            configuration: .init(socketPath: directory.path("api.sock"), onReady: { readyContinuation.yield($0) }),
            backend: backend, logger: Logger(label: "test"))
        let group = ServiceGroup(configuration: .init(services: [server], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ready.makeAsyncIterator()
            let addresses = try #require(await iterator.next())
            try await body(addresses, group)
            try await tasks.waitForAll()
        }
    }

    @Test func streamEndsOnGracefulShutdown() async throws {
        let backend = FakeBackend()
        try await Self.serving(backend) { addresses, group in
            async let response = Self.request(UnixSocketHTTPClient(socketPath: addresses.socketPath), "/v1/stream")
            var subscriptions = backend.subscriptions.makeAsyncIterator()
            _ = await subscriptions.next()
            backend.push(FakeBackend.fix(60, latitude: 1, longitude: 2))
            try await Task.sleep(for: .milliseconds(100))
            let start = ContinuousClock.now
            await group.triggerGracefulShutdown()
            let (status, body) = try await response
            #expect(status == 200)
            #expect(String(decoding: body, as: UTF8.self).contains("event: fix\n"))
            #expect(ContinuousClock.now - start < .seconds(5))
        }
    }

    @Test func aStreamForOneDeviceShowsOnlyItsEntries() async throws {
        let backend = FakeBackend()
        try await Self.serving(backend) { addresses, group in
            async let response = Self.request(UnixSocketHTTPClient(socketPath: addresses.socketPath), "/v1/stream?device=phone")
            var subscriptions = backend.subscriptions.makeAsyncIterator()
            _ = await subscriptions.next()
            backend.push(FakeBackend.fix(60, latitude: 1, longitude: 2, device: "tracker"))
            backend.push(FakeBackend.fix(61, latitude: 3, longitude: 4, device: "phone"))
            backend.push(FakeBackend.fix(62, latitude: 5, longitude: 6, device: "local"))
            try await Task.sleep(for: .milliseconds(100))
            await group.triggerGracefulShutdown()
            let (status, body) = try await response
            #expect(status == 200)
            let text = String(decoding: body, as: UTF8.self)
            #expect(text.contains(#""latitude":3,"longitude":4"#), "\(text)")
            #expect(!text.contains(#""device":"tracker""#) && !text.contains(#""device":"local""#), "\(text)")
        }
    }
}

/// `APILatency` against a real server; prints the figures (run in release for the benchmark).
@Suite struct APILatencyTests {
    @Test func measuresStatusAndLastFixOverTheUnixSocket() async throws {
        let directory = try TemporaryDirectory()
        let count = ProcessInfo.processInfo.environment["WAYMARK_BENCH"] == nil ? 200 : 5000
        try await APIServerTests.withServer(FakeBackend(), in: directory) { addresses in
            let client = UnixSocketHTTPClient(socketPath: addresses.socketPath)
            let paths = ["/v1/status", "/v1/fixes/last"]
            let measured = try await onOwnThread { try APILatency.measure(client: client, paths: paths, count: count) }
            #expect(measured.map(\.path) == paths)
            for latency in measured {
                print("GET \(latency.path) over the Unix socket, \(count) requests: p50 \(latency.p50), p99 \(latency.p99)")
                #expect(latency.p50 > .zero)
                #expect(latency.p50 <= latency.p99)
            }
            #expect(throws: APILatencyError.self) {
                try APILatency.measure(client: client, paths: ["/v1/status", "/v1/nothing"], count: 1)
            }
        }
    }
}
