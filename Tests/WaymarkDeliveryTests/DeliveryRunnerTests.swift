import Logging
import Synchronization
import Testing
import WaymarkCore
import WaymarkDelivery
import WaymarkOutputs

/// The runners over cursors in memory and channels that answer at once: what is sent, in which
/// order, and what the cursor is told (committed, released, dead-lettered, disabled).
@Suite struct DeliveryRunnerTests {
    static let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    static let output = Output(name: "hub", kind: .webhook(url: "http://127.0.0.1:1/"), secret: "s", createdAt: Timestamp(secondsSince1970: 0))

    static func event(_ sequence: Int64, _ device: String, kind: EventKind = .region) -> OutputEvent {
        OutputEvent(sequence: sequence, device: device, time: Timestamp(secondsSince1970: Double(sequence)), kind: kind, record: "{}")
    }

    /// A channel that records each event it is given and answers `answer(event)`.
    static func channel(_ sent: CursorLog, answer: @escaping @Sendable (OutputEvent) -> DeliveryOutcome = { _ in .delivered }) -> OutputChannel {
        OutputChannel(sendEvent: { body, event in
            sent.add("\(event.device) \(event.sequence)")
            return answer(event)
        })
    }

    static func runner(_ channel: OutputChannel, output: Output = output) -> DeliveryRunner<MemoryOutputCursor> {
        DeliveryRunner(output: output, channel: channel, source: "urn:waymark:test", activity: OutputActivity(), logger: logger)
    }

    @Test func batchesAreDeliveredInEachDevicesOrderAndCommitted() async {
        let sent = CursorLog()
        let cursor = MemoryOutputCursor(batches: [
            [Self.event(1, "a"), Self.event(2, "b"), Self.event(3, "a")], [Self.event(4, "b"), Self.event(5, "a")],
        ])
        await Self.runner(Self.channel(sent)).run(cursor)
        #expect(cursor.log.all == ["commit", "commit", "release"])
        #expect(sent.all.filter { $0.hasPrefix("a ") } == ["a 1", "a 3", "a 5"])
        #expect(sent.all.filter { $0.hasPrefix("b ") } == ["b 2", "b 4"])
    }

    @Test func eventsTheFilterLeavesOutAreCommittedUnsent() async {
        let sent = CursorLog()
        let cursor = MemoryOutputCursor(batches: [[Self.event(1, "a", kind: .location), Self.event(2, "a")], [Self.event(3, "a", kind: .location)]])
        await Self.runner(Self.channel(sent)).run(cursor)
        #expect(sent.all == ["a 2"])
        #expect(cursor.log.all == ["commit", "commit", "release"])
    }

    @Test func aGoneReceiverDisablesTheOutputAndReleasesTheBatch() async {
        let sent = CursorLog()
        let cursor = MemoryOutputCursor(batches: [[Self.event(1, "a")], [Self.event(2, "a"), Self.event(3, "a")], [Self.event(4, "a")]])
        await Self.runner(Self.channel(sent) { $0.sequence == 2 ? .gone("410") : .delivered }).run(cursor)
        #expect(sent.all == ["a 1", "a 2"])
        #expect(cursor.log.all == ["commit", "disable 410", "release"])
    }

    @Test func reQueuedDeadLettersGoFirst() async {
        let sent = CursorLog()
        var cursor = MemoryOutputCursor(batches: [[Self.event(9, "a")]])
        cursor.requeuedEvents = [Self.event(3, "b"), Self.event(5, "a")]
        await Self.runner(Self.channel(sent)).run(cursor)
        #expect(sent.all == ["b 3", "a 5", "a 9"])
        #expect(cursor.log.all == ["settled 3", "settled 5", "commit", "release"])
    }

    @Test func aDisabledOutputDeliversNothing() async {
        let sent = CursorLog()
        var output = Self.output
        output.disabled = "410"
        let cursor = MemoryOutputCursor(batches: [[Self.event(1, "a")]])
        await Self.runner(Self.channel(sent), output: output).run(cursor)
        #expect(sent.all.isEmpty && cursor.log.all.isEmpty)
    }

    /// Thinning at 10 s: a device's fix 1 s after its published one is held, a later one
    /// replaces it (the held one is settled), a fix of a device the filter leaves out is settled unsent.
    @Test func positionsHeldByTheThinningStayWithTheCursorUntilReplaced() async {
        let published = CursorLog()
        var output = Self.output
        output.format = .ownTracks
        output.locationSeconds = 10
        output.filter = OutputFilter(devices: ["a"])
        func fix(_ sequence: Int64, _ device: String, _ seconds: Double) -> OutputFix {
            OutputFix(
                sequence: sequence, device: device, time: Timestamp(secondsSince1970: seconds), coordinate: Coordinate(latitude: 1, longitude: 2),
                accuracy: nil, altitude: nil, speed: nil, course: nil)
        }
        let cursor = MemoryPositionCursor(batches: [[fix(1, "a", 100), fix(2, "b", 100), fix(3, "a", 101)], [fix(4, "a", 102)]])
        let runner = PositionRunner<MemoryPositionCursor>(
            output: output, publish: { fix in
                published.add("\(fix.sequence)")
                return .delivered
            }, activity: OutputActivity(), logger: Self.logger)
        await runner.run(cursor)
        #expect(published.all == ["1"])
        #expect(cursor.log.all == ["settle 1", "settle 2", "hold 3", "hold 4", "settle 3", "release"])
    }
}
