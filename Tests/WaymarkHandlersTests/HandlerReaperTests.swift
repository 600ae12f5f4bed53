import Foundation
import Testing
import WaymarkHandlers

/// Child exits reach the supervisor through pidfds polled by one thread (docs/platform.md).
@Suite struct HandlerReaperTests {
    static func spawn(_ script: String) throws -> HandlerProcess {
        try HandlerProcess.spawn(executable: "/bin/sh", arguments: ["-c", script], environment: [:], directory: "/", logPath: nil)
    }

    static func exit(of process: HandlerProcess) async -> (code: Int32?, signal: Int32?) {
        await withCheckedContinuation { continuation in
            HandlerReaper.shared.watch(process) { code, signal in continuation.resume(returning: (code, signal)) }
        }
    }

    @Test func anExitStatusIsReported() async throws {
        let status = await Self.exit(of: try Self.spawn("exit 3"))
        #expect(status.code == 3)
        #expect(status.signal == nil)
    }

    @Test func aKillingSignalIsReportedAndTheChildIsReaped() async throws {
        let process = try Self.spawn("exec sleep 30")
        async let status = Self.exit(of: process)
        #expect(process.signalGroup(SIGKILL))
        #expect(await status.signal == SIGKILL)
        #expect(await status.code == nil)
        #expect(HandlerProcess.state(of: process.pid) == nil)  // no zombie left
    }

    @Test func manyChildrenEndingInAnyOrderAreEachReportedOnce() async throws {
        let processes = try (0..<12).map { try Self.spawn("sleep 0.\(($0 * 7) % 10); exit \($0)") }
        let codes = await withTaskGroup(of: Int32?.self) { group in
            for process in processes { group.addTask { await Self.exit(of: process).code } }
            return await group.reduce(into: [Int32?]()) { $0.append($1) }
        }
        #expect(codes.compactMap { $0 }.sorted() == Array(0..<12))
    }
}
