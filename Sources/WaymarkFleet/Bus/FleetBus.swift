import Logging
import WaymarkNATS

/// A node's connection to the fleet's bus, with the fix and event streams made if they are not there yet
/// (the first node to start makes it; JetStream keeps it across restarts).
struct FleetBus: Sendable {
    let connection: NATSConnection
    let jetStream: JetStream

    static func connect(url: String, node: String, logger: Logger) async throws -> FleetBus {
        let connection = try await NATSConnection.connect(url: url, name: node, logger: logger)
        let jetStream = JetStream(connection)
        do {
            try await jetStream.ensureStream(
                FleetSubjects.fixStream, subjects: [FleetSubjects.fixRoot + ".>"], maxAge: FleetSubjects.fixRetention)
            try await jetStream.ensureStream(
                FleetSubjects.eventStream, subjects: [FleetSubjects.eventRoot + ".>"], maxAge: FleetSubjects.eventRetention)
        } catch {
            await connection.close()
            throw error
        }
        return FleetBus(connection: connection, jetStream: jetStream)
    }

    /// Throws once the connection is gone. The client does not reconnect: the node stops with
    /// an error and its supervisor (systemd's `Restart=`) starts it again, which also makes it
    /// give its partitions back meanwhile.
    func check() throws {
        if connection.isClosed {
            throw FleetError("lost the connection to NATS: \(connection.closeReason.map { "\($0)" } ?? "closed")")
        }
    }
}
