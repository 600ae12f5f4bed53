import Foundation
import Logging
import Testing
import WaymarkCore
import WaymarkHandlers
import WaymarkStore
import WaymarkTestSupport

/// Acknowledgements (docs/handlers.md, "Delivery"): only an event sent on the connection counts,
/// once; the supervisor commits a flood of them in groups, and they are in the store before it
/// next reads a queue.
@Suite struct HandlerAcknowledgementTests {
    @Test func onlyAnEventSentOnThisConnectionAndNotYetAcknowledgedCounts() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a")])
        driver.launchForRegion("a", at: 0)
        driver.at(10, .delivered(handler: "a", sent: [1, 2], through: 2))
        #expect(driver.at(20, .acknowledged(handler: "a", id: 3)).isEmpty)  // never sent
        #expect(driver.at(30, .acknowledged(handler: "a", id: 1)) == [.storeAcknowledgement(handler: "a", id: 1)])
        #expect(driver.at(40, .acknowledged(handler: "a", id: 1)).isEmpty)  // a repeat
        #expect(driver.handler("a").counters.acknowledged == 1)
        // A new connection starts afresh: event 2 of the old one is sent again before it counts.
        driver.at(50, .connected(handler: "a"))
        #expect(driver.at(60, .acknowledged(handler: "a", id: 2)).isEmpty)
    }

    @Test func aBacklogIsSentAWindowAtATimeAsAcknowledgementsComeIn() {
        var driver = LifecycleDriver([LifecycleDriver.registration("a")])
        driver.launchForRegion("a", at: 0)
        let window = Int64(HandlerLifecycle.deliveryWindow)
        #expect(driver.at(10, .delivered(handler: "a", sent: Array(1...window), through: window, more: true)).isEmpty)
        for id in 1..<(window / 2) {
            #expect(driver.at(20, .acknowledged(handler: "a", id: id)) == [.storeAcknowledgement(handler: "a", id: id)])
        }
        // Half the window acknowledged: the next one is read, after the last id sent.
        #expect(driver.at(30, .acknowledged(handler: "a", id: window / 2)) == [
            .storeAcknowledgement(handler: "a", id: window / 2), .deliver(handler: "a", after: window),
        ])
        #expect(driver.at(40, .acknowledged(handler: "a", id: window / 2 + 1)) == [.storeAcknowledgement(handler: "a", id: window / 2 + 1)])
    }

    @Test func aFloodOfAcknowledgementsIsStoredAndAStrayOneIsNot() async throws {
        let directory = try TemporaryDirectory()
        let logger = Logger(label: "waymark.test", factory: { _ in SwiftLogNoOpLogHandler() })
        let store = try WaymarkStore(path: directory.path("w.sqlite"), logger: logger)
        let clock = ManualWallClock(Timestamp(secondsSince1970: 1_780_000_000))
        let registration = HandlerRegistration(
            name: "hand", executable: "/bin/false", subscription: HandlerSubscription(allRegions: true))
        try store.saveHandler(name: "hand", registrationJSON: try registration.encoded(), replace: false, at: clock.now)
        let server = try await HandlerSocketServer.bind(base: directory.path("run"), logger: logger)
        defer { server.stop() }
        let supervisor = HandlerSupervisor(
            store: store, socketPath: server.path, queries: .init(regionState: { _, _ in "null" }, lastLocation: { _ in "null" }),
            clock: clock, logger: logger)
        try await supervisor.reload()
        server.start { supervisor.serve($0) }
        let events = (0..<500).map { QueuedHandlerEvent.New(handler: "hand", time: clock.now, kind: .region, record: "{\"n\":\($0)}") }
        let ids = try store.enqueueHandlerEvents(events, at: clock.now)

        // Started by hand (no token): it becomes active and is sent its queue, a window at a
        // time; it acknowledges in bursts, then a stray id and a repeat.
        let path = server.path
        let received = try await onOwnThread {
            let client = try LineClient(path: path)
            try client.send(#"{"type":"hello","handler":"hand"}"#)
            var received: [Int64] = []
            var unacknowledged: [Int64] = []
            while received.count < ids.count, let line = try client.readLine() {
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    object["type"] as? String == "event"
                else { continue }
                let id = (object["id"] as! NSNumber).int64Value
                received.append(id)
                unacknowledged.append(id)
                if unacknowledged.count == 100 || received.count == ids.count {
                    try client.send(unacknowledged.map { #"{"type":"ack","id":\#($0)}"# }.joined(separator: "\n"))
                    unacknowledged = []
                }
            }
            try client.send(#"{"type":"ack","id":\#(ids.last! + 1_000)}"# + "\n" + #"{"type":"ack","id":\#(ids[0])}"#)
            return received
        }
        #expect(received == ids)
        #expect(await HandlerSupervisorClockTests.eventually { (try? store.handlerEventCounts()["hand"]?.unacknowledged) == 0 })
        let status = try #require(await supervisor.status().first)
        #expect(status.eventsQueued == 500)
        #expect(status.eventsUnacknowledged == 0)
        #expect(status.counters?.launches == 0)  // started by hand
        await supervisor.shutdown()
    }
}

/// A handler's end of the socket, line by line, with blocking calls (a test's own thread).
final class LineClient: @unchecked Sendable {
    private let fd: Int32
    private var pending: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, byte) in path.utf8.enumerated() { buffer[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // A test waiting for a line that never comes fails after 10 s instead of hanging.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        let bytes = Array((text + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written > 0 else { throw POSIXError(.EIO) }
            offset += written
        }
    }

    /// The next line, or nil at end of file or after 10 s without one.
    func readLine() throws -> String? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let newline = pending.firstIndex(of: 10) {
                defer { pending.removeSubrange(...newline) }
                return String(decoding: pending[..<newline], as: UTF8.self)
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return nil }
            pending.append(contentsOf: buffer[0..<count])
        }
    }
}
