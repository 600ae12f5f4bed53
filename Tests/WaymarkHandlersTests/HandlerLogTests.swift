import Foundation
import Testing
import WaymarkHandlers
import WaymarkTestSupport

/// A handler's log kept to a size: copied aside and emptied in place, while a writer with an
/// O_APPEND descriptor (as a handler's stdout is) goes on writing to it.
@Suite struct HandlerLogTests {
    @Test func aLogOverItsLimitIsCopiedAsideAndEmptiedUnderItsWriter() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("chatty.log")
        let writer = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        try #require(writer >= 0)
        defer { close(writer) }
        let line = Array(String(repeating: "x", count: 99).utf8) + [0x0A]
        for _ in 0..<50 { _ = line.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } }
        let log = HandlerLog(path: path, maximumBytes: 4096)
        #expect(log.rotateIfLarge())
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: path + ".1")[.size] as? Int == 5000)
        #expect(try FileManager.default.attributesOfItem(atPath: path + ".1")[.posixPermissions] as? Int == 0o600)
        // The writer's next line lands at the new start, not after a hole.
        _ = line.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(line))
        #expect(!log.rotateIfLarge())
        #expect(!HandlerLog(path: directory.path("missing.log")).rotateIfLarge())
    }
}
