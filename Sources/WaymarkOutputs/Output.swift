import WaymarkCore

/// Somewhere Waymark sends its events (docs/outputs.md): a webhook or an MQTT broker. Each output reads the
/// history's events in order from its own cursor, so an output that is slow or down delays
/// nothing but itself.
public struct Output: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// POST each event as a CloudEvent to this http(s) URL.
        case webhook(url: String)
        /// Publish each event as a CloudEvent at QoS 1 (`MQTTTarget`: `mqtt://HOST[:PORT]/TOPIC`).
        case mqtt(url: String)

        /// `webhook` or `mqtt`: the store's `kind` column.
        public var name: String {
            switch self {
            case .webhook: "webhook"
            case .mqtt: "mqtt"
            }
        }

        public var url: String {
            switch self {
            case .webhook(let url), .mqtt(let url): url
            }
        }
    }

    /// What an MQTT output publishes: the CloudEvent (default), OwnTracks' own messages, which
    /// Home Assistant's OwnTracks integration reads (`OwnTracksFormat`), or Home Assistant's
    /// MQTT discovery and states (`HomeAssistantFormat`).
    public enum Format: String, Sendable, Equatable, CaseIterable {
        case cloudEvents = "cloudevents"
        case ownTracks = "owntracks"
        case homeAssistant = "homeassistant"

        /// Whether the output also publishes the devices' recorded fixes as positions
        /// (thinned: `Output.locationSeconds`).
        public var publishesLocations: Bool { self != .cloudEvents }
    }

    public var name: String
    public var kind: Kind
    public var format: Format
    /// The HMAC key the receiver checks signatures with (`WebhookSignature`).
    public var secret: String
    public var filter: OutputFilter
    /// How long an event is retried before it goes to the dead letters.
    public var keepSeconds: Int
    /// The last event (history row id) delivered, or skipped by the filter.
    public var deliveredThrough: Int64
    /// Seconds of a device's fix time between the positions published (`LocationThinning`;
    /// 0: every fix), for the formats that publish them.
    public var locationSeconds: Int
    /// The last fix (history row id) published or passed over.
    public var locationsThrough: Int64
    /// Why the output stopped (a receiver's 410), nil while it delivers.
    public var disabled: String?
    public var createdAt: Timestamp

    public static let defaultKeepSeconds = 86_400
    public static let defaultLocationSeconds = 10

    public init(
        name: String, kind: Kind, format: Format = .cloudEvents, secret: String, filter: OutputFilter = OutputFilter(),
        keepSeconds: Int = Output.defaultKeepSeconds, locationSeconds: Int = Output.defaultLocationSeconds,
        deliveredThrough: Int64 = 0, locationsThrough: Int64 = 0, disabled: String? = nil, createdAt: Timestamp
    ) {
        self.name = name
        self.kind = kind
        self.format = format
        self.secret = secret
        self.filter = filter
        self.keepSeconds = keepSeconds
        self.deliveredThrough = deliveredThrough
        self.locationSeconds = locationSeconds
        self.locationsThrough = locationsThrough
        self.disabled = disabled
        self.createdAt = createdAt
    }

    /// Why `name` cannot name an output, or nil: the rules of device names (short, safe in a
    /// URL path and a metric label).
    public static func problem(withName name: String) -> String? {
        guard !name.isEmpty, name.count <= 64 else { return "an output name has 1 to 64 characters" }
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
        return allowed ? nil : "an output name has letters, digits, '-', '_' and '.' only"
    }
}
