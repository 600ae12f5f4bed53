import Foundation
import WaymarkNATS

/// `waymark fleet status`: the nodes, who owns each partition and output, and how far behind
/// each is.
public struct FleetStatus: Sendable, Codable, Equatable {
    public struct Node: Sendable, Codable, Equatable {
        public var name: String
        public var role: String
        public var alive: Bool
        public var silentSeconds: Double
        public var regionsVersion: Int64
        public var partitions: [Int]
        /// An output node's outputs.
        public var outputs: [String]
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

    public struct OutputState: Sendable, Codable, Equatable {
        public var name: String
        /// `webhook` or `mqtt` (the URL is left out: it may hold a password).
        public var kind: String
        /// The live output node delivering it, if any.
        public var owner: String?
        /// Why it stopped (its receiver's 410); nil while it delivers.
        public var disabled: String?
        /// Events in the stream it has not fetched yet.
        public var pending: Int
        /// Events fetched and not yet acknowledged (being delivered, or waiting for redelivery).
        public var unacknowledged: Int
        public var deadLetters: Int
    }

    public var partitionCount: Int
    public var regionsVersion: Int64
    public var nodes: [Node]
    public var partitions: [Partition]
    public var outputs: [OutputState]
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
                regionsVersion: $0.regionsVersion, partitions: $0.partitions, outputs: $0.outputs)
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
        var outputOwners: [String: String] = [:]
        for node in nodes where node.alive && node.role == "output" {
            for output in node.outputs { outputOwners[output] = node.name }
        }
        var outputs: [OutputState] = []
        for output in try await database.outputs() {
            let info = try? await jetStream.consumerInfo(stream: FleetSubjects.eventStream, durable: FleetSubjects.consumer(output: output.name))
            outputs.append(
                OutputState(
                    name: output.name, kind: output.kind.name, owner: outputOwners[output.name], disabled: output.disabled,
                    pending: Int(info?.numPending ?? 0), unacknowledged: Int(info?.numAckPending ?? 0),
                    deadLetters: try await database.deadLetterCount(output: output.name)))
        }
        await nats.close()
        return FleetStatus(
            partitionCount: count, regionsVersion: version, nodes: nodes, partitions: partitions, outputs: outputs,
            streamMessages: streamMessages)
    }

    /// For people: a line per node, then a line per partition.
    public var text: String {
        var lines = ["partitions \(partitionCount), regions version \(regionsVersion), \(streamMessages) fixes in the stream", ""]
        lines.append("NODE                 ROLE    STATE  REGIONS  OWNS")
        for node in nodes {
            let state = node.alive ? "alive" : "gone"
            lines.append(
                node.name.padding(toLength: 20, withPad: " ", startingAt: 0) + " " + node.role.padding(toLength: 7, withPad: " ", startingAt: 0)
                    + " " + state.padding(toLength: 6, withPad: " ", startingAt: 0) + " " + String(node.regionsVersion).padding(toLength: 8, withPad: " ", startingAt: 0)
                    + " " + (node.partitions.map(String.init) + node.outputs).joined(separator: ","))
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
        if !outputs.isEmpty {
            lines.append("")
            lines.append("OUTPUT               KIND     OWNER                PENDING  UNACKED  DEAD  STOPPED")
            for output in outputs {
                lines.append(
                    output.name.padding(toLength: 20, withPad: " ", startingAt: 0) + " " + output.kind.padding(toLength: 8, withPad: " ", startingAt: 0)
                        + " " + (output.owner ?? "-").padding(toLength: 20, withPad: " ", startingAt: 0) + " "
                        + String(output.pending).padding(toLength: 8, withPad: " ", startingAt: 0) + " "
                        + String(output.unacknowledged).padding(toLength: 8, withPad: " ", startingAt: 0) + " "
                        + String(output.deadLetters).padding(toLength: 5, withPad: " ", startingAt: 0) + " " + (output.disabled ?? "-"))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
