import WaymarkCore
import WaymarkOutputs

/// An output as `GET /v1/outputs` and `waymark outputs list` show it (docs/outputs.md). The
/// secret is shown once, when the output is added.
public struct OutputStatus: Codable, Sendable, Equatable {
    /// What the output has done since the daemon started.
    public typealias Activity = OutputCounts

    public var name: String
    public var kind: String
    /// `cloudevents`; for MQTT also `owntracks` (OwnTracks' messages) or `homeassistant` (MQTT discovery).
    public var format: String
    public var url: String
    public var regions: [String]
    public var devices: [String]
    public var kinds: [String]
    public var keepSeconds: Int
    /// The last event (history row id) delivered or skipped.
    public var deliveredThrough: Int64
    /// For formats that publish positions: seconds between a device's positions (0: every
    /// fix), and the last fix (history row id) published or passed over.
    public var locationSeconds: Int?
    public var locationsThrough: Int64?
    public var disabled: String?
    /// RFC 3339, whole seconds.
    public var createdAt: String
    public var secret: String?
    /// Nil when read from the database without a daemon.
    public var activity: Activity?

    public init(_ output: Output, activity: Activity? = nil, showSecret: Bool = false) {
        name = output.name
        kind = output.kind.name
        format = output.format.rawValue
        switch output.kind {
        case .webhook(let url), .mqtt(let url): self.url = URLRedaction.redacted(url)
        }
        regions = output.filter.regions
        devices = output.filter.devices
        kinds = output.filter.kinds.map(\.rawValue)
        keepSeconds = output.keepSeconds
        deliveredThrough = output.deliveredThrough
        if output.format.publishesLocations {
            locationSeconds = output.locationSeconds
            locationsThrough = output.locationsThrough
        }
        disabled = output.disabled
        createdAt = output.createdAt.secondStart.rfc3339
        secret = showSecret ? output.secret : nil
        self.activity = activity
    }
}

/// `GET /v1/outputs`.
public struct OutputList: Codable, Sendable, Equatable {
    public var outputs: [OutputStatus]

    public init(outputs: [OutputStatus]) { self.outputs = outputs }
}

/// `POST /v1/outputs`: a webhook and what it is sent (empty lists: all; kinds default to
/// `region` and `beacon`).
public struct NewOutput: Codable, Sendable, Equatable {
    public var name: String
    public var url: String
    public var regions: [String]?
    public var devices: [String]?
    public var kinds: [String]?
    public var keepSeconds: Int?
    /// `cloudevents` (the default) or, for MQTT, `owntracks` or `homeassistant`.
    public var format: String?
    /// Seconds between a device's positions for `owntracks` and `homeassistant` (default 10; 0: every fix).
    public var locationSeconds: Int?

    public init(
        name: String, url: String, regions: [String]? = nil, devices: [String]? = nil, kinds: [String]? = nil, keepSeconds: Int? = nil,
        format: String? = nil, locationSeconds: Int? = nil
    ) {
        self.format = format
        self.locationSeconds = locationSeconds
        self.name = name
        self.url = url
        self.regions = regions
        self.devices = devices
        self.kinds = kinds
        self.keepSeconds = keepSeconds
    }

    /// The output this asks for, with `secret`, or the field that is wrong and why: an
    /// `mqtt://` URL makes an MQTT output, an http(s) one a webhook.
    public func output(secret: String, at time: Timestamp) -> Result<Output, OutputFieldError> {
        if let problem = Output.problem(withName: name) { return .failure(OutputFieldError(field: "name", message: problem)) }
        let kind: Output.Kind
        if url.lowercased().hasPrefix("mqtt://") {
            if case .failure(let error) = MQTTTarget.parse(url) { return .failure(error) }
            kind = .mqtt(url: url)
        } else {
            if let problem = Self.problem(withURL: url) { return .failure(OutputFieldError(field: "url", message: problem)) }
            kind = .webhook(url: url)
        }
        var eventKinds: [EventKind] = OutputFilter.defaultKinds
        if let kinds {
            var parsed: [EventKind] = []
            for kind in kinds {
                guard let known = EventKind(rawValue: kind) else {
                    let all = EventKind.allCases.map(\.rawValue).joined(separator: ", ")
                    return .failure(OutputFieldError(field: "kinds", message: "unknown kind '\(kind)'; one of \(all)"))
                }
                parsed.append(known)
            }
            eventKinds = parsed
        }
        var outputFormat = Output.Format.cloudEvents
        if let format {
            guard let known = Output.Format(rawValue: format) else {
                return .failure(OutputFieldError(field: "format", message: "expected cloudevents, owntracks or homeassistant, got '\(format)'"))
            }
            if known != .cloudEvents, case .webhook = kind {
                return .failure(OutputFieldError(field: "format", message: "\(format) is for MQTT outputs (mqtt://HOST/TOPIC)"))
            }
            if known != .cloudEvents, url.contains("{") {
                return .failure(OutputFieldError(field: "url", message: "\(format) publishes under a base topic: no {device} or {kind} in it"))
            }
            outputFormat = known
        }
        let keep = keepSeconds ?? Output.defaultKeepSeconds
        guard keep > 0 else { return .failure(OutputFieldError(field: "keepSeconds", message: "expected a positive number of seconds")) }
        let every = locationSeconds ?? Output.defaultLocationSeconds
        guard every >= 0, every <= 86_400 else {
            return .failure(OutputFieldError(field: "locationSeconds", message: "expected 0 to 86400 seconds"))
        }
        if locationSeconds != nil, !outputFormat.publishesLocations {
            return .failure(OutputFieldError(field: "locationSeconds", message: "only owntracks and homeassistant outputs publish positions"))
        }
        return .success(Output(
            name: name, kind: kind, format: outputFormat, secret: secret,
            filter: OutputFilter(regions: regions ?? [], devices: devices ?? [], kinds: eventKinds), keepSeconds: keep,
            locationSeconds: every, createdAt: time))
    }

    /// Why `url` cannot be a webhook's address, or nil: http or https, with a host.
    static func problem(withURL url: String) -> String? {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return "expected an http:// or https:// URL (or mqtt://HOST/TOPIC)" }
        let rest = url.drop { $0 != ":" }.dropFirst(3)
        guard let first = rest.first, first != "/", !rest.contains(where: { $0 == " " || $0 == "\n" }) else {
            return "expected a URL with a host, like https://hub.example/waymark"
        }
        return nil
    }
}


/// `POST /v1/outputs/{name}/test`: whether the receiver took the test event, and what it said.
public struct OutputTestResult: Codable, Sendable, Equatable {
    public var output: String
    public var delivered: Bool
    public var answer: String

    public init(output: String, delivered: Bool, answer: String) {
        self.output = output
        self.delivered = delivered
        self.answer = answer
    }
}

/// `POST /v1/outputs/{name}/retry`: how many dead letters were re-queued.
public struct OutputRetryResult: Codable, Sendable, Equatable {
    public var output: String
    public var requeued: Int

    public init(output: String, requeued: Int) {
        self.output = output
        self.requeued = requeued
    }
}
