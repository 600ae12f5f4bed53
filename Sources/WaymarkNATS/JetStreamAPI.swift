/// JSON shapes of the JetStream API (`$JS.API.*`), in NATS's own snake_case keys. Durations are
/// nanoseconds on the wire.

/// `{"error":{...}}`, present in any API response that failed.
struct APIErrorEnvelope: Decodable {
    var error: JetStreamAPIError?
}

/// Stream configuration sent on create and update. Only what Waymark sets; the server fills the
/// rest with its defaults.
struct StreamConfig: Codable, Equatable {
    var name: String
    var subjects: [String]
    var storage: String = "file"
    var retention: String = "limits"
    var maxAge: Int64
    var duplicateWindow: Int64
    var numReplicas: Int = 1

    enum CodingKeys: String, CodingKey {
        case name, subjects, storage, retention
        case maxAge = "max_age"
        case duplicateWindow = "duplicate_window"
        case numReplicas = "num_replicas"
    }
}

struct ConsumerConfig: Codable, Equatable {
    var durableName: String
    var ackPolicy: String = "explicit"
    var deliverPolicy: String = "all"
    var replayPolicy: String = "instant"
    var filterSubject: String
    var ackWait: Int64
    var maxAckPending: Int
    /// With `deliverPolicy` `by_start_time`: the first message's earliest time, RFC 3339.
    var optStartTime: String?

    enum CodingKeys: String, CodingKey {
        case durableName = "durable_name"
        case ackPolicy = "ack_policy"
        case deliverPolicy = "deliver_policy"
        case replayPolicy = "replay_policy"
        case filterSubject = "filter_subject"
        case ackWait = "ack_wait"
        case maxAckPending = "max_ack_pending"
        case optStartTime = "opt_start_time"
    }
}

struct CreateConsumerRequest: Encodable {
    var streamName: String
    var config: ConsumerConfig

    enum CodingKeys: String, CodingKey {
        case streamName = "stream_name"
        case config
    }
}

/// Body of `$JS.API.CONSUMER.MSG.NEXT`: wait up to `expires` for up to `batch` messages; or,
/// with `noWait` (and no `expires`), take what is there now and end.
struct PullRequest: Encodable {
    var batch: Int
    var expires: Int64?
    var noWait: Bool = false
    var idleHeartbeat: Int64?

    enum CodingKeys: String, CodingKey {
        case batch, expires
        case noWait = "no_wait"
        case idleHeartbeat = "idle_heartbeat"
    }
}

struct SuccessResponse: Decodable {
    var success: Bool
}

/// The stream's answer to a JetStream publish.
public struct PubAck: Sendable, Hashable, Decodable {
    public var stream: String
    public var sequence: UInt64
    /// True when the message ID was already seen within the stream's duplicate window: the
    /// message was not stored again and `sequence` is that of the first copy.
    public var duplicate: Bool

    public init(stream: String, sequence: UInt64, duplicate: Bool) {
        self.stream = stream
        self.sequence = sequence
        self.duplicate = duplicate
    }

    enum CodingKeys: String, CodingKey {
        case stream
        case sequence = "seq"
        case duplicate
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        stream = try c.decode(String.self, forKey: .stream)
        sequence = try c.decode(UInt64.self, forKey: .sequence)
        duplicate = try c.decodeIfPresent(Bool.self, forKey: .duplicate) ?? false
    }
}

/// A stream's configuration (what Waymark reads of it) and state.
public struct StreamInfo: Sendable, Hashable, Decodable {
    public var name: String
    public var subjects: [String]
    public var maxAge: Duration
    public var messages: UInt64
    public var bytes: UInt64
    public var firstSequence: UInt64
    public var lastSequence: UInt64
    public var consumerCount: Int

    enum CodingKeys: String, CodingKey { case config, state }
    struct Config: Decodable {
        var name: String
        var subjects: [String]?
        var maxAge: Int64?
        enum CodingKeys: String, CodingKey {
            case name, subjects
            case maxAge = "max_age"
        }
    }
    struct State: Decodable {
        var messages: UInt64
        var bytes: UInt64
        var firstSeq: UInt64
        var lastSeq: UInt64
        var consumerCount: Int?
        enum CodingKeys: String, CodingKey {
            case messages, bytes
            case firstSeq = "first_seq"
            case lastSeq = "last_seq"
            case consumerCount = "consumer_count"
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let config = try c.decode(Config.self, forKey: .config)
        let state = try c.decode(State.self, forKey: .state)
        name = config.name
        subjects = config.subjects ?? []
        maxAge = .nanoseconds(config.maxAge ?? 0)
        messages = state.messages
        bytes = state.bytes
        firstSequence = state.firstSeq
        lastSequence = state.lastSeq
        consumerCount = state.consumerCount ?? 0
    }
}

/// A consumer's progress.
public struct ConsumerInfo: Sendable, Hashable, Decodable {
    public var stream: String
    public var name: String
    public var filterSubject: String?
    public var ackWait: Duration
    public var maxAckPending: Int
    /// Messages in the stream matching the filter not yet delivered.
    public var numPending: UInt64
    /// Delivered and not yet acknowledged.
    public var numAckPending: Int
    public var numRedelivered: Int
    /// Pull requests waiting at the server.
    public var numWaiting: Int
    public var deliveredStreamSequence: UInt64
    public var deliveredConsumerSequence: UInt64
    public var ackFloorStreamSequence: UInt64
    public var ackFloorConsumerSequence: UInt64

    enum CodingKeys: String, CodingKey {
        case stream = "stream_name"
        case name, config, delivered
        case ackFloor = "ack_floor"
        case numPending = "num_pending"
        case numAckPending = "num_ack_pending"
        case numRedelivered = "num_redelivered"
        case numWaiting = "num_waiting"
    }
    struct Config: Decodable {
        var filterSubject: String?
        var ackWait: Int64?
        var maxAckPending: Int?
        enum CodingKeys: String, CodingKey {
            case filterSubject = "filter_subject"
            case ackWait = "ack_wait"
            case maxAckPending = "max_ack_pending"
        }
    }
    struct SequenceInfo: Decodable {
        var consumerSeq: UInt64?
        var streamSeq: UInt64?
        enum CodingKeys: String, CodingKey {
            case consumerSeq = "consumer_seq"
            case streamSeq = "stream_seq"
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        stream = try c.decode(String.self, forKey: .stream)
        name = try c.decode(String.self, forKey: .name)
        let config = try c.decodeIfPresent(Config.self, forKey: .config)
        filterSubject = config?.filterSubject
        ackWait = .nanoseconds(config?.ackWait ?? 0)
        maxAckPending = config?.maxAckPending ?? 0
        numPending = try c.decodeIfPresent(UInt64.self, forKey: .numPending) ?? 0
        numAckPending = try c.decodeIfPresent(Int.self, forKey: .numAckPending) ?? 0
        numRedelivered = try c.decodeIfPresent(Int.self, forKey: .numRedelivered) ?? 0
        numWaiting = try c.decodeIfPresent(Int.self, forKey: .numWaiting) ?? 0
        let delivered = try c.decodeIfPresent(SequenceInfo.self, forKey: .delivered)
        let ackFloor = try c.decodeIfPresent(SequenceInfo.self, forKey: .ackFloor)
        deliveredStreamSequence = delivered?.streamSeq ?? 0
        deliveredConsumerSequence = delivered?.consumerSeq ?? 0
        ackFloorStreamSequence = ackFloor?.streamSeq ?? 0
        ackFloorConsumerSequence = ackFloor?.consumerSeq ?? 0
    }
}
