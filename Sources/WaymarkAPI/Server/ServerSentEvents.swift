import Hummingbird
import ServiceLifecycle

/// Writes live entries as Server-Sent Events (https://html.spec.whatwg.org/multipage/server-sent-events.html):
/// `event: <kind>` and `data: <json>` per entry, and a `: heartbeat` comment every `heartbeat`
/// so proxies keep the connection and a vanished client is noticed at the next write.
///
/// Returns when the live stream finishes, the task is cancelled (the client closed its side) or
/// the service group shuts down gracefully.
enum ServerSentEvents {
    private enum Item: Sendable {
        case entry(HistoryEntry)
        case heartbeat
    }

    static func write(
        _ live: AsyncStream<HistoryEntry>, devices: Set<String>? = nil, heartbeat: Duration, to writer: inout any ResponseBodyWriter
    ) async throws {
        let (items, continuation) = AsyncStream<Item>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        try await writer.write(ByteBuffer(string: ": connected\n\n"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await entry in live where devices.map({ entry.device.map($0.contains) ?? false }) ?? true {
                    continuation.yield(.entry(entry))
                }
                continuation.finish()
            }
            group.addTask {
                while (try? await Task.sleep(for: heartbeat)) != nil { continuation.yield(.heartbeat) }
            }
            defer { group.cancelAll() }
            for await item in items.cancelOnGracefulShutdown() {
                switch item {
                case .entry(let entry): try await writer.write(ByteBuffer(string: event(entry)))
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
