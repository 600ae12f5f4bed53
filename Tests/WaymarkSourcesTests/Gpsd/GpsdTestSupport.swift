import Foundation
import Logging
import Synchronization
import WaymarkCore
import WaymarkSources

/// Collects a source's events as they arrive, with the moment each arrived, so a test can
/// wait for a condition with a deadline without cancelling the stream.
final class EventRecorder: Sendable {
    struct Entry: Sendable {
        var at: ContinuousClock.Instant
        var event: GpsdEvent
    }

    private let entries = Mutex<[Entry]>([])

    /// Records `source`'s events until its stream ends.
    static func start(_ source: GpsdSource) -> EventRecorder {
        let recorder = EventRecorder()
        let events = source.events
        Task {
            for await batch in events {
                for event in batch { recorder.append(event) }
            }
        }
        return recorder
    }

    private func append(_ event: GpsdEvent) {
        entries.withLock { $0.append(Entry(at: .now, event: event)) }
    }

    var all: [Entry] { entries.withLock { $0 } }
    var events: [GpsdEvent] { all.map(\.event) }
    var hasDisconnected: Bool { events.contains { $0.isDisconnected } }

    /// The first fix recorded after the first `count` events.
    func firstFix(after count: Int) -> Entry? { all.dropFirst(count).first { $0.event.isFix } }

    var fixes: [Fix] { events.compactMap { if case .fix(let fix) = $0 { fix } else { nil } } }

    /// Waits until `condition` holds for the events so far, or `timeout` passes; returns
    /// whether it held.
    @discardableResult
    func wait(timeout: Duration = .seconds(5), until condition: ([Entry]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(all) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(all)
    }
}

extension GpsdEvent {
    var isFix: Bool { if case .fix = self { true } else { false } }
    var isGap: Bool { if case .gap = self { true } else { false } }
    var isConnected: Bool { if case .connected = self { true } else { false } }
    var isDisconnected: Bool { if case .disconnected = self { true } else { false } }
}

/// Log messages kept in memory, so tests can check what a source logged.
final class RecordedLog: Sendable {
    struct Message: Sendable {
        var level: Logger.Level
        var text: String
        var metadata: [String: String]
    }

    private let messages = Mutex<[Message]>([])

    var all: [Message] { messages.withLock { $0 } }

    func append(_ message: Message) { messages.withLock { $0.append(message) } }

    /// A logger writing here, at `level` and above.
    func logger(level: Logger.Level = .debug) -> Logger {
        var logger = Logger(label: "waymark.test.gpsd") { _ in RecordingHandler(log: self) }
        logger.logLevel = level
        return logger
    }

    private struct RecordingHandler: LogHandler {
        let log: RecordedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            log.append(
                Message(
                    level: event.level, text: event.message.description,
                    metadata: merged.mapValues { $0.description }))
        }
    }
}
