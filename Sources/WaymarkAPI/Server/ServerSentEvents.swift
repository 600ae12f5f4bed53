import Hummingbird
import ServiceLifecycle

/// Writes live entries as Server-Sent Events (https://html.spec.whatwg.org/multipage/server-sent-events.html):
/// `event: <kind>` and `data: <json>` per entry, and a `: heartbeat` comment every `heartbeat`
/// so proxies keep the connection and a vanished client is noticed at the next write.
///
/// Returns when the live stream finishes, the task is cancelled (the client closed its side) or
/// the service group shuts down gracefully. A commit's entries go out in one write.
enum ServerSentEvents {
    private enum Item: Sendable {
        case entries([HistoryEntry])
        case heartbeat
    }

    static func write(
        _ live: AsyncStream<[HistoryEntry]>, devices: Set<String>? = nil, heartbeat: Duration, to writer: inout any ResponseBodyWriter
    ) async throws {
        // Bounded like the feed: a client that does not read loses its oldest commits.
        let (items, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .bufferingNewest(64))
        try await writer.write(ByteBuffer(string: ": connected\n\n"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await entries in live {
                    let wanted = devices.map { devices in entries.filter { $0.device.map(devices.contains) ?? false } } ?? entries
                    if !wanted.isEmpty { continuation.yield(.entries(wanted)) }
                }
                continuation.finish()
            }
            group.addTask {
                while (try? await Task.sleep(for: heartbeat)) != nil { continuation.yield(.heartbeat) }
            }
            defer { group.cancelAll() }
            for await item in items.cancelOnGracefulShutdown() {
                switch item {
                case .entries(let entries):
                    var text = ""
                    text.reserveCapacity(entries.count * 200)
                    for entry in entries { text += event(entry) }
                    try await writer.write(ByteBuffer(string: text))
                case .heartbeat: try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                }
            }
        }
    }

    /// One event. The JSON is one line, so one `data:` field carries it.
    static func event(_ entry: HistoryEntry) -> String {
        "event: \(entry.kind)\ndata: \(entry.json)\n\n"
    }
}
