import Foundation
import WaymarkCore
import WaymarkDevices
import WaymarkOutputs
import WaymarkRegions
import WaymarkStore
import WaymarkTimelineJob

/// What the API needs from the daemon. The daemon implements it over its store and pipeline;
/// tests use an in-memory fake.
///
/// Every method may be called concurrently from many requests.
public protocol DaemonBackend: Sendable {
    /// What the daemon is doing now, for `GET /v1/status` and `GET /metrics`.
    func status() async -> DaemonStatus
    /// The most recent fix recorded from `device` (`local`: the receiver; docs/devices.md), or
    /// `nil` when none has been. Throws `APIError.noDevice` for a device that is not known.
    func lastFix(device: String) async throws -> HistoryEntry?
    /// Recorded fixes, gaps and events in time order, filtered by `request`.
    func history(_ request: HistoryRequest) async throws -> [HistoryEntry]
    /// The local days of `timeZone` on which `device` has fixes, oldest first, with how many
    /// (`GET /v1/history/days`); empty for a known device without fixes. Throws
    /// `APIError.noDevice` for a device that is not known.
    func fixDays(device: String, timeZone: TimeZone) async throws -> [FixDay]
    /// Why the stored event `id` happened (docs/explain.md); nil when there is no such event.
    /// Throws `APIError` 422 `not-explainable` for an event no rule decided (a fix, a visit…).
    func explainEvent(id: Int64) async throws -> EventExplainAnswer?
    /// A phone's reported transitions beside the server's for `from` ≤ time < `to`, as the JSON
    /// answer of `GET /v1/devices/{name}/disagreements` (docs/devices.md, "Phone and server side
    /// by side"); nil when there is no such device.
    func disagreements(device: String, from: Timestamp, to: Timestamp, tolerance: Double) async throws -> String?
    /// The energy ledger's stored buckets of the hours ending after `since` (all when nil),
    /// brought up to date first (docs/semantics.md §4).
    func energy(since: Timestamp?) async throws -> [EnergyBucket]
    /// `device`'s phone energy rows of the hours ending after `since` (docs/semantics.md §4.4),
    /// brought up to date first. Throws `APIError.noDevice` for a device that is not known.
    func phoneEnergy(device: String, since: Timestamp?) async throws -> [PhoneEnergyBucket]
    /// Every stored region.
    func regions() async throws -> [Region]
    /// Stores `regions` in one transaction. Throws `StoreError` (`invalidRegions`,
    /// `duplicateIdentifier`, …) and writes nothing when the import is refused.
    func importRegions(_ regions: [Region], replace: Bool) async throws -> ImportReport
    /// Removes a region; `false` when there was no region with that identifier.
    func removeRegion(identifier: String) async throws -> Bool
    /// Whether `device` is inside the region now; `nil` when there is no such region. Throws
    /// `APIError.noDevice` for a device that is not known.
    func regionState(identifier: String, device: String) async throws -> RegionStateInfo?
    /// A device's history through the export code: the file's bytes (`stats`: the statistics'
    /// JSON). Throws `APIError` 404 `empty-track` when the range holds no fix.
    func export(_ request: ExportRequest) async throws -> [UInt8]
    /// A device's stays and trips, named (`GET /v1/timeline`, docs/timeline/web.md). Throws
    /// `APIError.noDevice` for a device that is not known, `APIError` 501 where there is none
    /// (the fleet).
    func timeline(_ request: TimelineRequest) async throws -> Timeline
    /// The imports of history files into the store (`POST /v1/imports`, docs/import.md). Throws
    /// `APIError` 501 where there are none (the fleet).
    func imports() async throws -> HistoryImports
    /// Every device, by name (docs/devices.md).
    func devices() async throws -> [Device]
    /// Adds a device with a new secret, returned once. Throws `StoreError`
    /// `.duplicateIdentifier` when the name is taken.
    func addDevice(name: String, user: String?) async throws -> (Device, DeviceSecret)
    /// Gives a device a new secret (the old one stops working); nil when there is no such device.
    func newDeviceSecret(name: String) async throws -> (Device, DeviceSecret)?
    /// Removes a device (its history stays); `false` when there was none.
    func removeDevice(name: String) async throws -> Bool
    /// Every output, with what it has done since the daemon started (docs/outputs.md).
    func outputs() async throws -> [OutputStatus]
    /// Adds an output (delivering from the newest event on) and starts it; throws `StoreError`
    /// `.duplicateIdentifier` when the name is taken.
    func addOutput(_ output: Output) async throws -> Output
    /// Removes an output and its dead letters; `false` when there was none.
    func removeOutput(name: String) async throws -> Bool
    /// Re-queues the output's dead letters and restarts it; how many, nil when there is no such output.
    func retryOutput(name: String) async throws -> Int?
    /// Sends the output a test event now; nil when there is no such output.
    func testOutput(name: String) async throws -> OutputTestResult?
    /// Fixes and events as they are recorded, each with its JSON object (same shapes as
    /// history), one array per commit. The stream finishing ends the `/v1/stream` responses
    /// reading it.
    func live() async -> AsyncStream<[HistoryEntry]>
    /// Every handler with its state and counters, one JSON object each (docs/handlers.md).
    func handlers() async -> [String]
    /// Registers a handler from its JSON registration (docs/handlers.md); returns its status
    /// object. Throws `APIError` 400/422 for a bad registration, `StoreError` for a duplicate.
    func registerHandler(_ body: [UInt8], replace: Bool) async throws -> String
    /// Unregisters a handler (its queue goes too); `false` when there was none.
    func removeHandler(name: String) async throws -> Bool
    /// Re-reads the handler registrations from the store (after `waymark handlers add|remove`).
    func reloadHandlers() async throws
    /// Force-quits or launches a handler; `false` when there is no such handler.
    func handler(_ command: HandlerCommand, name: String) async throws -> Bool
    /// Queues a pushed wake with `data` (JSON, checked by the caller) for the handler.
    func pushHandler(name: String, data: String) async throws -> PushResult
}

/// What `POST /v1/handlers/{name}/notify` did.
public enum PushResult: Sendable, Equatable {
    /// Queued as the handler's event `id`.
    case queued(id: Int64)
    case noHandler
    /// Too many pushes for this handler: again in this many seconds.
    case rateLimited(retryAfter: Double)
}

/// What `POST /v1/handlers/{name}/COMMAND` asks.
public enum HandlerCommand: String, Sendable, CaseIterable {
    /// Force-quit: SIGKILL and a mark (docs/semantics.md §1).
    case quit
    /// Start it as the user would: active, no budget, force-quit mark cleared.
    case launch
    /// An active handler moves to the background: `didEnterBackground`, then its budget applies.
    case background
}

/// One recorded item: a fix, a gap in reception, or a region event.
public struct HistoryEntry: Sendable, Equatable {
    /// The kinds `kind` takes.
    public static let kinds: Set<String> = ["fix", "gap", "event"]

    /// `fix`, `gap` or `event`.
    public var kind: String
    public var time: Timestamp
    /// Where it happened, when the entry has a position (fixes, and events located at a fix).
    public var coordinate: Coordinate?
    /// The entry as one compact JSON object, spliced into responses verbatim, e.g.
    /// `{"kind":"fix","time":"2024-05-01T12:00:00Z","latitude":52.1,"longitude":4.3}`.
    public var json: String
    /// The device it came from (docs/devices.md), when known.
    public var device: String?

    public init(kind: String, time: Timestamp, coordinate: Coordinate? = nil, json: String, device: String? = nil) {
        self.kind = kind
        self.time = time
        self.coordinate = coordinate
        self.json = json
        self.device = device
    }
}

/// Which history entries to return: `from` ≤ time < `to`; `nil` means unbounded.
public struct HistoryRequest: Sendable, Equatable {
    public var from: Timestamp?
    public var to: Timestamp?
    /// Kinds to include (`fix`, `gap`, `event`); empty means all.
    public var kinds: Set<String>
    /// At most this many entries, the earliest first; `nil` for no limit.
    public var limit: Int?
    /// Only these devices' entries; nil: every device's.
    public var devices: Set<String>?

    public init(from: Timestamp? = nil, to: Timestamp? = nil, kinds: Set<String> = [], limit: Int? = nil, devices: Set<String>? = nil) {
        self.from = from
        self.to = to
        self.kinds = kinds
        self.limit = limit
        self.devices = devices
    }
}

/// Whether the device is inside a region, as the region engine last decided.
public struct RegionStateInfo: Sendable, Equatable {
    public var identifier: String
    /// `inside`, `outside` or `unknown` (no fix since the region was added).
    public var state: String
    /// When the region entered this state, when known.
    public var since: Timestamp?

    public init(identifier: String, state: String, since: Timestamp? = nil) {
        self.identifier = identifier
        self.state = state
        self.since = since
    }

    /// `{"identifier":"…","state":"inside","since":"…Z"|null}`
    public var json: String {
        var w = JSONObjectWriter()
        w.add("identifier", identifier)
        w.add("state", state)
        w.add("since", since?.rfc3339)
        return w.object
    }
}

extension DaemonBackend {
    /// No phone estimates: a backend that prices no phones (the fleet, tests' fakes) knows no
    /// such device's energy.
    public func phoneEnergy(device: String, since: Timestamp?) async throws -> [PhoneEnergyBucket] {
        throw APIError.notFound("no energy estimate for device \"\(device)\": this server prices no phones", code: "no-device")
    }
}
