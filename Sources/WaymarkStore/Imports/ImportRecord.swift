import WaymarkCore

/// One import as the store keeps it (`imports`): what it was given, how far it got, what it added.
public struct ImportRecord: Sendable, Equatable {
    public enum State: String, Sendable, Equatable {
        /// Reading its files: fixes are being added chunk by chunk.
        case reading
        /// Its new fixes are running through the device's pipeline, in time order.
        case evaluating
        case done
        /// A file could not be read (wholly or in part): what was read is kept; `error` says where it stopped.
        case failed
    }

    public var id: Int64
    public var device: String
    public var state: State
    public var started: Timestamp
    public var finished: Timestamp?
    /// The names of the inputs, as given.
    public var sources: [String]
    /// The inputs' identity (their digests, in order): the same command finds its interrupted import by it.
    public var fingerprint: String
    /// Whether its events are delivered to outputs.
    public var deliver: Bool
    public var bytesTotal: Int64?
    public var bytesRead: Int64
    public var fixesAdded: Int64
    public var fixesPresent: Int64
    /// Reported visits and activities kept (Google's own).
    public var reported: Int64
    /// Events the device's pipeline computed from the new fixes.
    public var events: Int64
    public var error: String?

    public init(
        id: Int64, device: String, state: State, started: Timestamp, finished: Timestamp? = nil, sources: [String], fingerprint: String,
        deliver: Bool, bytesTotal: Int64? = nil, bytesRead: Int64 = 0, fixesAdded: Int64 = 0, fixesPresent: Int64 = 0,
        reported: Int64 = 0, events: Int64 = 0, error: String? = nil
    ) {
        self.id = id
        self.device = device
        self.state = state
        self.started = started
        self.finished = finished
        self.sources = sources
        self.fingerprint = fingerprint
        self.deliver = deliver
        self.bytesTotal = bytesTotal
        self.bytesRead = bytesRead
        self.fixesAdded = fixesAdded
        self.fixesPresent = fixesPresent
        self.reported = reported
        self.events = events
        self.error = error
    }
}

/// One input file of an import (`import_files`).
public struct ImportFileRecord: Sendable, Equatable {
    public enum State: String, Sendable, Equatable { case reading, done, failed }

    public var importID: Int64
    public var name: String
    /// SHA-256 of the file's bytes, lowercase hex.
    public var digest: String
    public var size: Int64
    public var state: State
    public var fixesAdded: Int64
    public var fixesPresent: Int64
    public var reported: Int64
    public var error: String?

    public init(
        importID: Int64, name: String, digest: String, size: Int64, state: State, fixesAdded: Int64 = 0, fixesPresent: Int64 = 0,
        reported: Int64 = 0, error: String? = nil
    ) {
        self.importID = importID
        self.name = name
        self.digest = digest
        self.size = size
        self.state = state
        self.fixesAdded = fixesAdded
        self.fixesPresent = fixesPresent
        self.reported = reported
        self.error = error
    }
}
