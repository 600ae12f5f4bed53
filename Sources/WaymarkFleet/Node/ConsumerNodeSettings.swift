/// A worker's or an output node's settings: who it is, where the bus is, and how its durable
/// consumers pull and hold messages.
public struct ConsumerNodeSettings: Sendable {
    public var name: String
    public var natsURL: String
    /// Messages per fetch, and the most a consumer leaves unacknowledged.
    public var batch = 256
    /// How long a fetched batch may stay unacknowledged before it is redelivered, and so the
    /// longest a dead node's last batch waits for the next owner.
    public var ackWait: Duration
    /// How long a pull waits for the next message when none is waiting, before asking again.
    public var fetchWait: Duration = .seconds(1)
    /// How often the node heartbeats and takes or gives back what it owns.
    public var tick: Duration = .seconds(1)

    /// A worker: a batch is written in well under a second, so a short ack wait moves a dead
    /// worker's partitions soon.
    public static func worker(name: String, natsURL: String) -> ConsumerNodeSettings {
        ConsumerNodeSettings(name: name, natsURL: natsURL, ackWait: .seconds(5))
    }

    /// An output node: a batch waits for receivers, and the node says every third of the ack
    /// wait that it is still at it.
    public static func output(name: String, natsURL: String) -> ConsumerNodeSettings {
        ConsumerNodeSettings(name: name, natsURL: natsURL, ackWait: .seconds(10))
    }
}
