import Foundation
import WaymarkNATS

/// `waymark fleet status`: the nodes, who owns each partition and how far behind it is.
public struct FleetStatus: Sendable, Codable, Equatable {
    public struct Node: Sendable, Codable, Equatable {
        public var name: String
        public var role: String
        public var alive: Bool
        public var silentSeconds: Double
        public var regionsVersion: Int64
        public var partitions: [Int]
    }

    public struct Partition: Sendable, Codable, Equatable {
        public var partition: Int
        /// The live worker that owns it, if any.
        public var owner: String?
        /// Fixes in the stream its worker has not fetched yet.
        public var pending: Int
        /// Fixes fetched and not yet acknowledged (being written, or waiting for redelivery).
        public var unacknowledged: Int
        public var redelivered: Int
    }

    public var partitionCount: Int
    public var regionsVersion: Int64
    public var nodes: [Node]
    public var partitions: [Partition]
    /// Fixes stored in the bus's stream (acknowledged ones stay until the stream's limits).
    public var streamMessages: Int

    /// Reads the status from the database and the bus.
    public static func read(database: FleetDatabase, natsURL: String) async throws -> FleetStatus {
        let count = try await database.currentPartitions() ?? 0
        let records = try await database.nodes()
        let version = try await database.regionsVersion()
        let nodes = records.map {
            Node(
                name: $0.name, role: $0.role, alive: $0.silentFor <= FleetDatabase.nodeLease, silentSeconds: $0.silentFor,
                regionsVersion: $0.regionsVersion, partitions: $0.partitions)
        }
        var owners: [Int: String] = [:]
        for node in nodes where node.alive && node.role == "worker" {
            for partition in node.partitions { owners[partition] = node.name }
        }
        let nats = try await NATSConnection.connect(url: natsURL, name: "waymark fleet status", logger: database.logger)
        let jetStream = JetStream(nats)
        var partitions: [Partition] = []
        var streamMessages = 0
        // Before the first node has made them, the stream and its consumers do not exist: nothing waits.
        if let stream = try? await jetStream.streamInfo(FleetSubjects.fixStream) {
            streamMessages = Int(stream.messages)
        }
        for partition in 0..<count {
            let info = try? await jetStream.consumerInfo(stream: FleetSubjects.fixStream, durable: FleetSubjects.consumer(partition: partition))
            partitions.append(
                Partition(
                    partition: partition, owner: owners[partition], pending: Int(info?.numPending ?? 0),
                    unacknowledged: Int(info?.numAckPending ?? 0), redelivered: Int(info?.numRedelivered ?? 0)))
        }
        await nats.close()
        return FleetStatus(partitionCount: count, regionsVersion: version, nodes: nodes, partitions: partitions, streamMessages: streamMessages)
    }

    /// For people: a line per node, then a line per partition.
    public var text: String {
        var lines = ["partitions \(partitionCount), regions version \(regionsVersion), \(streamMessages) fixes in the stream", ""]
        lines.append("NODE                 ROLE    STATE  REGIONS  PARTITIONS")
        for node in nodes {
            let state = node.alive ? "alive" : "gone"
            lines.append(
                node.name.padding(toLength: 20, withPad: " ", startingAt: 0) + " " + node.role.padding(toLength: 7, withPad: " ", startingAt: 0)
                    + " " + state.padding(toLength: 6, withPad: " ", startingAt: 0) + " " + String(node.regionsVersion).padding(toLength: 8, withPad: " ", startingAt: 0)
                    + " " + node.partitions.map(String.init).joined(separator: ","))
        }
        lines.append("")
        lines.append("PARTITION  OWNER                PENDING  UNACKED  REDELIVERED")
        for partition in partitions {
            lines.append(
                String(partition.partition).padding(toLength: 10, withPad: " ", startingAt: 0) + " "
                    + (partition.owner ?? "-").padding(toLength: 20, withPad: " ", startingAt: 0) + " "
                    + String(partition.pending).padding(toLength: 8, withPad: " ", startingAt: 0) + " "
                    + String(partition.unacknowledged).padding(toLength: 8, withPad: " ", startingAt: 0) + " " + String(partition.redelivered))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
