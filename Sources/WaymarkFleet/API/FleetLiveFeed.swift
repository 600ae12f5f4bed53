import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import WaymarkAPI
import WaymarkCore
import WaymarkNATS
import WaymarkStore

/// `GET /v1/stream` on an api node: fixes and events as they cross the bus, in the daemon's
/// shapes. A plain NATS subscription to `waymark.fix.>` and `waymark.event.>` sees every
/// message JetStream stores, with no consumer to keep or acknowledge: a client that connects
/// sees what happens from then on, as with the single daemon.
///
/// Fixes are shown as an ingest node published them (accepted from a device, before their
/// worker's pipeline); events once their worker has committed them (docs/fleet.md, "API").
final class FleetLiveFeed: Service, Sendable {
    /// Entries kept for a subscriber that has not taken them, as the daemon's stream keeps.
    static let buffered = 256

    private let natsURL: String
    private let node: String
    private let logger: Logger
    private let subscribers = Mutex<[UUID: AsyncStream<[HistoryEntry]>.Continuation]>([:])
    /// Set on graceful shutdown: the connection's end is then no error.
    private let stopping = Mutex(false)

    init(natsURL: String, node: String, logger: Logger) {
        self.natsURL = natsURL
        self.node = node
        self.logger = logger
    }

    /// Entries from now on, until the node stops or the subscriber goes away.
    func subscribe() -> AsyncStream<[HistoryEntry]> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: [HistoryEntry].self, bufferingPolicy: .bufferingNewest(Self.buffered))
        continuation.onTermination = { [weak self] _ in _ = self?.subscribers.withLock { $0.removeValue(forKey: id) } }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    func run() async throws {
        let connection = try await NATSConnection.connect(url: natsURL, name: node + " live", logger: logger)
        defer { for continuation in subscribers.withLock({ Array($0.values) }) { continuation.finish() } }
        let fixes = try await connection.subscribe(to: FleetSubjects.allFixes)
        let events = try await connection.subscribe(to: FleetSubjects.allEvents)
        try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for subscription in [fixes, events] {
                    group.addTask {
                        do {
                            for try await message in subscription { self.publish(message) }
                        } catch where self.stopping.withLock({ $0 }) {
                            return
                        }
                    }
                }
                try await group.waitForAll()
            }
        } onGracefulShutdown: {
            self.stopping.withLock { $0 = true }
            Task { await connection.close() }
        }
    }

    private func publish(_ message: NATSMessage) {
        guard let entry = Self.entry(message) else { return }
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield([entry]) }
    }

    /// A bus message as the stream shows it; nil for what it does not show (a device's own
    /// reports, a message that is not a fix or an event's record).
    static func entry(_ message: NATSMessage) -> HistoryEntry? {
        if message.subject.hasPrefix(FleetSubjects.eventRoot + ".") {
            let device = FleetSubjects.device(fromToken: String(message.subject.dropFirst(FleetSubjects.eventRoot.count + 1)))
            guard let event = FleetEventRecord.storedEvent(device: device, payload: message.payload) else { return nil }
            return HistoryEntry(.event(event))
        }
        guard FleetSubjects.isFix(message.subject), let payload = try? FixPayload.decode(message.payload) else { return nil }
        let fix = payload.fix
        return HistoryEntry(.fix(StoredFix(id: 0, fix: fix, source: "network", device: payload.device)))
    }
}
