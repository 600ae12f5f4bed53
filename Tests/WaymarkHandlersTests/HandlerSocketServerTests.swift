import Foundation
import Synchronization
import Logging
import Testing
import WaymarkHandlers
import WaymarkTestSupport

/// The handler socket on SwiftNIO: lines both ways, a read's lines together, and the socket
/// paths Linux allows (up to 107 bytes; NIO's own bind stops at 103).
@Suite struct HandlerSocketServerTests {
    @Test func linesGoBothWaysAtTheLongestPathLinuxAllows() async throws {
        let directory = try TemporaryDirectory()
        let fixed = "/daemon-\(getpid())/handlers.sock".utf8.count
        let base = directory.path(String(repeating: "b", count: 107 - fixed - (directory.path("b").utf8.count - 1)))
        let logger = Logger(label: "waymark.test", factory: { _ in SwiftLogNoOpLogHandler() })
        let server = try await HandlerSocketServer.bind(base: base, logger: logger)
        defer { server.stop() }
        #expect(server.path.utf8.count == 107)
        server.start { connection in
            connection.readLines({ lines in connection.send(lines: lines.map { "echo " + $0 }) }, ended: {})
        }
        let path = server.path
        let replies = try await onOwnThread {
            let client = try LineClient(path: path)
            try client.send("one\ntwo")
            return [try client.readLine(), try client.readLine()]
        }
        #expect(replies == ["echo one", "echo two"])
    }

    @Test func aLineOverOneMebibyteEndsTheConnection() async throws {
        let directory = try TemporaryDirectory()
        let logger = Logger(label: "waymark.test", factory: { _ in SwiftLogNoOpLogHandler() })
        let server = try await HandlerSocketServer.bind(base: directory.path("run"), logger: logger)
        defer { server.stop() }
        let ended = ManualFlag()
        server.start { connection in connection.readLines({ _ in }, ended: { ended.set() }) }
        let path = server.path
        let end = try await onOwnThread {
            let client = try LineClient(path: path)
            try? client.send(String(repeating: "x", count: (1 << 20) + 65_536))
            return try client.readLine()
        }
        #expect(end == nil)
        #expect(await HandlerSupervisorClockTests.eventually { ended.isSet })
    }
}

/// Set once, read from any thread.
final class ManualFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
