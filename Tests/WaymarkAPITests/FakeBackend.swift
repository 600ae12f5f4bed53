import Logging
import Synchronization
import WaymarkAPI
import WaymarkCore
import WaymarkDevices
import WaymarkOutputs
import WaymarkRegions
import WaymarkStore

/// An in-memory daemon: regions in a dictionary, history in an array, and a live stream the
/// test pushes entries into.
final class FakeBackend: DaemonBackend {
    struct State {
        var status: DaemonStatus
        var history: [HistoryEntry] = []
        var regions: [Region] = []
        /// `local`'s region states, by region.
        var states: [String: RegionStateInfo] = [:]
        /// Other devices' region states, by device then region.
        var deviceStates: [String: [String: RegionStateInfo]] = [:]
        var lastRequest: HistoryRequest?
        /// Thrown by the next `importRegions`, instead of importing.
        var importError: StoreError?
        var subscribers: [AsyncStream<[HistoryEntry]>.Continuation] = []
        /// When set, `live()` streams these entries and finishes (instead of waiting for `push`).
        var scriptedLive: [HistoryEntry]?
        var energy: [EnergyBucket] = FakeBackend.sampleEnergy
        /// The `since` of the last `energy` call.
        var lastEnergySince: Timestamp??
        /// Pushes taken by `logger`.
        var pushes = 0
        /// Bodies `registerHandler` accepted.
        var registrations: [String] = []
        /// What `explainEvent` answers, by event id.
        var explanations: [Int64: EventExplainAnswer] = [1: FakeBackend.sampleExplanation]
        /// What `imports()` answers; nil: 501.
        var imports: HistoryImports?
    }

    let state: Mutex<State>
    /// Devices live in a real in-memory store: the API is tested against the store's own rules.
    let store: WaymarkStore
    /// Yields once per `live()` call, so a test knows a stream client is subscribed.
    let subscriptions: AsyncStream<Void>
    private let subscribed: AsyncStream<Void>.Continuation

    init(history: [HistoryEntry] = FakeBackend.sampleHistory, regions: [Region] = FakeBackend.sampleRegions) {
        state = Mutex(State(status: FakeBackend.sampleStatus, history: history, regions: regions))
        store = try! WaymarkStore.temporary(logger: Logger(label: "fake", factory: { _ in SwiftLogNoOpLogHandler() }))
        (subscriptions, subscribed) = AsyncStream<Void>.makeStream()
        state.withLock { $0.states["park"] = RegionStateInfo(identifier: "park", state: "inside", since: Self.time(30)) }
    }

    func status() async -> DaemonStatus {
        state.withLock { s in
            var status = s.status
            status.regionCount = s.regions.count
            status.lastFix = s.history.last(where: { $0.kind == "fix" })
            return status
        }
    }

    func lastFix(device: String) async throws -> HistoryEntry? {
        try await requireKnown(device)
        return state.withLock { $0.history.last(where: { $0.kind == "fix" && ($0.device ?? "local") == device }) }
    }

    /// `local`, a device of the store, or one whose entries or states the test set up.
    private func requireKnown(_ device: String) async throws {
        let known = state.withLock { s in
            device == "local" || s.deviceStates[device] != nil || s.history.contains { $0.device == device }
        }
        if !known, try store.device(named: device) == nil { throw APIError.noDevice(device) }
    }

    func history(_ request: HistoryRequest) async throws -> [HistoryEntry] {
        state.withLock { s in
            s.lastRequest = request
            let matching = s.history.filter { entry in
                (request.kinds.isEmpty || request.kinds.contains(entry.kind))
                    && (request.from.map { entry.time >= $0 } ?? true)
                    && (request.to.map { entry.time <= $0 } ?? true)
            }
            return Array(matching.prefix(request.limit ?? .max))
        }
    }

    func explainEvent(id: Int64) async throws -> EventExplainAnswer? { state.withLock { $0.explanations[id] } }

    /// An inferred crossing's explanation, as the daemon writes one (docs/explain.md).
    static let sampleExplanation = EventExplainAnswer(
        json: #"{"event":{"id":1,"device":"local","kind":"region","transition":"exit","region":"park","time":"2024-05-01T12:00:45Z","confirmedAt":"2024-05-01T12:01:00Z","record":{"kind":"region","transition":"exit","region":"park","time":"2024-05-01T12:00:45Z","latitude":52,"longitude":4.0012,"confirmedAt":"2024-05-01T12:01:00Z","crossed":true}},"#
            + #""reproduced":true,"mismatch":null,"rule":"crossed","estimated":false,"confirmedAt":"2024-05-01T12:01:00Z","margin":10,"delay":20,"startState":"outside","window":{"from":"2024-05-01T11:50:00Z","to":"2024-05-01T12:01:30Z"},"fixes":2,"#
            + #""before":[{"time":"2024-05-01T12:00:00Z","latitude":52,"longitude":3.9956,"horizontalAccuracy":5,"inside":false,"edgeDistance":250}],"#
            + #""after":[{"time":"2024-05-01T12:01:00Z","latitude":52,"longitude":4.0044,"horizontalAccuracy":null,"inside":false,"edgeDistance":250}],"omittedAfter":0,"#
            + #""path":{"from":{"time":"2024-05-01T12:00:00Z","latitude":52,"longitude":3.9956,"horizontalAccuracy":5,"inside":false,"edgeDistance":250},"to":{"time":"2024-05-01T12:01:00Z","latitude":52,"longitude":4.0044,"horizontalAccuracy":null,"inside":false,"edgeDistance":250},"#
            + #""points":[{"transition":"enter","time":"2024-05-01T12:00:15Z","latitude":52,"longitude":3.9993,"confirmedAt":"2024-05-01T12:01:00Z","rule":"crossed","estimated":false},{"transition":"exit","time":"2024-05-01T12:00:45Z","latitude":52,"longitude":4.0012,"confirmedAt":"2024-05-01T12:01:00Z","rule":"crossed","estimated":false}]},"#
            + #""recomputed":[{"transition":"enter","time":"2024-05-01T12:00:15Z","latitude":52,"longitude":3.9993,"confirmedAt":"2024-05-01T12:01:00Z","rule":"crossed","estimated":false},{"transition":"exit","time":"2024-05-01T12:00:45Z","latitude":52,"longitude":4.0012,"confirmedAt":"2024-05-01T12:01:00Z","rule":"crossed","estimated":false}],"exitTimeout":null,"notes":[]}"#,
        text: "event 1: exit \"park\" (region), device local, at 2024-05-01T12:00:45Z, confirmed 2024-05-01T12:01:00Z\nreproduced: yes")

    func regions() async throws -> [Region] { state.withLock { $0.regions } }

    func devices() async throws -> [Device] { try store.devices() }

    func addDevice(name: String, user: String?) async throws -> (Device, DeviceSecret) {
        try store.addDevice(name: name, user: user, at: Self.time(0))
    }

    func newDeviceSecret(name: String) async throws -> (Device, DeviceSecret)? { try store.newDeviceSecret(device: name) }

    func removeDevice(name: String) async throws -> Bool { try store.removeDevice(named: name) }

    func outputs() async throws -> [OutputStatus] { try store.outputs().map { OutputStatus($0) } }

    func addOutput(_ output: Output) async throws -> Output { try store.addOutput(output) }

    func removeOutput(name: String) async throws -> Bool { try store.removeOutput(named: name) }

    func retryOutput(name: String) async throws -> Int? {
        try store.output(named: name) == nil ? nil : try store.requeueDeadLetters(output: name)
    }

    func testOutput(name: String) async throws -> OutputTestResult? {
        try store.output(named: name) == nil ? nil : OutputTestResult(output: name, delivered: false, answer: "no receiver in tests")
    }

    func energy(since: Timestamp?) async throws -> [EnergyBucket] {
        state.withLock { s in
            s.lastEnergySince = .some(since)
            return s.energy.filter { since == nil || $0.hour.adding(seconds: 3600) > since! }
        }
    }

    func importRegions(_ regions: [Region], replace: Bool) async throws -> ImportReport {
        try state.withLock { s in
            if let error = s.importError { throw error }
            var report = ImportReport()
            let existing = Set(s.regions.map(\.identifier))
            let duplicates = regions.map(\.identifier).filter(existing.contains)
            if !replace, !duplicates.isEmpty {
                throw StoreError(
                    code: .duplicateIdentifier, message: "already stored: \(duplicates.joined(separator: ", "))",
                    identifiers: duplicates)
            }
            for region in regions {
                if let i = s.regions.firstIndex(where: { $0.identifier == region.identifier }) {
                    s.regions[i] = region
                    report.replaced.append(region.identifier)
                } else {
                    s.regions.append(region)
                    report.inserted.append(region.identifier)
                }
            }
            return report
        }
    }

    func removeRegion(identifier: String) async throws -> Bool {
        state.withLock { s in
            guard let i = s.regions.firstIndex(where: { $0.identifier == identifier }) else { return false }
            s.regions.remove(at: i)
            return true
        }
    }

    func regionState(identifier: String, device: String) async throws -> RegionStateInfo? {
        try await requireKnown(device)
        return state.withLock { s in
            guard s.regions.contains(where: { $0.identifier == identifier }) else { return nil }
            let states = device == "local" ? s.states : s.deviceStates[device] ?? [:]
            return states[identifier] ?? RegionStateInfo(identifier: identifier, state: "unknown")
        }
    }

    /// What the real export would be asked for, echoed (the real one is tested through the CLI).
    func export(_ request: ExportRequest) async throws -> [UInt8] {
        let echo = "\(request.format.rawValue) \(request.device) \(request.from?.rfc3339 ?? "-") \(request.to?.rfc3339 ?? "-")"
        guard request.format == .stats else { return Array(echo.utf8) }
        return Array(#"{"points":3,"segments":1,"distance":12.5,"asked":"\#(echo)"}"#.utf8)
    }

    /// The imports a test set up over a real store (`ImportRouteTests`); 501 otherwise, as in a fleet.
    func imports() async throws -> HistoryImports {
        guard let imports = state.withLock({ $0.imports }) else {
            throw APIError(.notImplemented, code: "not-in-fleet", message: "importing history files: no imports in this fake")
        }
        return imports
    }

    func live() async -> AsyncStream<[HistoryEntry]> {
        let (stream, continuation) = AsyncStream<[HistoryEntry]>.makeStream()
        if let scripted = state.withLock({ $0.scriptedLive }) {
            for entry in scripted { continuation.yield([entry]) }
            continuation.finish()
            return stream
        }
        state.withLock { $0.subscribers.append(continuation) }
        subscribed.yield()
        return stream
    }

    /// Sends `entry` to every live subscriber.
    func push(_ entry: HistoryEntry) {
        for c in state.withLock({ $0.subscribers }) { c.yield([entry]) }
    }

    /// Ends every live stream (the daemon stopping its pipeline).
    func finishLive() {
        for c in state.withLock({ $0.subscribers }) { c.finish() }
    }

    // MARK: Sample data

    static func time(_ seconds: Double) -> Timestamp { Timestamp(secondsSince1970: 1_714_564_800 + seconds) }

    static func fix(_ seconds: Double, latitude: Double, longitude: Double, device: String? = nil) -> HistoryEntry {
        var w = JSONObjectWriter()
        w.add("kind", "fix")
        w.add("time", time(seconds).rfc3339)
        w.add("latitude", latitude)
        w.add("longitude", longitude)
        w.add("speed", 4.5)
        if let device { w.add("device", device) }
        return HistoryEntry(
            kind: "fix", time: time(seconds), coordinate: Coordinate(latitude: latitude, longitude: longitude), json: w.object,
            device: device)
    }

    static func event(_ seconds: Double, region: String, transition: String) -> HistoryEntry {
        var w = JSONObjectWriter()
        w.add("kind", "event")
        w.add("time", time(seconds).rfc3339)
        w.add("region", region)
        w.add("transition", transition)
        w.add("latitude", 52.0)
        w.add("longitude", 4.0)
        return HistoryEntry(
            kind: "event", time: time(seconds), coordinate: Coordinate(latitude: 52, longitude: 4), json: w.object)
    }

    static func gap(_ seconds: Double) -> HistoryEntry {
        var w = JSONObjectWriter()
        w.add("kind", "gap")
        w.add("time", time(seconds).rfc3339)
        w.add("duration", 60.0)
        return HistoryEntry(kind: "gap", time: time(seconds), json: w.object)
    }

    static let sampleHistory: [HistoryEntry] = [
        fix(0, latitude: 52.0, longitude: 4.0),
        fix(10, latitude: 52.001, longitude: 4.001),
        gap(20),
        event(30, region: "park", transition: "enter"),
        fix(40, latitude: 52.002, longitude: 4.002),
    ]

    static let sampleRegions: [Region] = [
        Region(
            identifier: "park", shape: .circle(center: Coordinate(latitude: 52, longitude: 4), radius: 150),
            propertiesJSON: "{\"name\":\"park\",\"radius\":150}"),
        Region(
            identifier: "block",
            shape: .polygons([
                Polygon(exterior: [
                    Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1),
                    Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 0, longitude: 0),
                ])
            ]), propertiesJSON: nil),
    ]

    func handlers() async -> [String] { [#"{"name":"logger","state":"suspended"}"#] }
    func reloadHandlers() async throws {}
    func registerHandler(_ body: [UInt8], replace: Bool) async throws -> String {
        guard String(decoding: body, as: UTF8.self).contains("\"executable\"") else {
            throw APIError(.unprocessableContent, code: "invalid-registration", message: "executable: missing")
        }
        state.withLock { $0.registrations.append(String(decoding: body, as: UTF8.self)) }
        return #"{"name":"logger","state":"notRunning"}"#
    }
    func removeHandler(name: String) async throws -> Bool { name == "logger" }
    func handler(_ command: HandlerCommand, name: String) async throws -> Bool { name == "logger" }
    /// `logger` takes two pushes, then is rate-limited; nobody else exists.
    func pushHandler(name: String, data: String) async throws -> PushResult {
        guard name == "logger" else { return .noHandler }
        let count = state.withLock { $0.pushes += 1; return $0.pushes }
        return count <= 2 ? .queued(id: Int64(count)) : .rateLimited(retryAfter: 7.5)
    }
    static let beaconRegion = Region(
        identifier: "bike-tag",
        shape: .beacon(BeaconIdentity(uuid: BeaconUUID("8DEEFBB9-F738-4297-8040-96668BB44281")!, major: 42)),
        propertiesJSON: #"{"beacon":{"uuid":"8DEEFBB9-F738-4297-8040-96668BB44281","major":42},"exitTimeout":60}"#)

    /// Two hours of ledger: GNSS for the daemon and a handler, Bluetooth for the handler.
    static let sampleEnergy: [EnergyBucket] = [
        EnergyBucket(hour: time(0), radio: "gnss", handler: "(daemon)", profile: "ublox-m8-usb", state: "acquiring", seconds: 30, joules: 2.25),
        EnergyBucket(hour: time(0), radio: "gnss", handler: "(daemon)", profile: "ublox-m8-usb", state: "tracking", seconds: 600, joules: 39.6),
        EnergyBucket(hour: time(0), radio: "gnss", handler: "hiker", profile: "ublox-m8-usb", state: "tracking", seconds: 600, joules: 39.6),
        EnergyBucket(hour: time(3600), radio: "gnss", handler: "hiker", profile: "ublox-m8-usb", state: "off", seconds: 3600, joules: 0),
        EnergyBucket(hour: time(3600), radio: "bluetooth", handler: "hiker", profile: "ble-adapter", state: "scanning", seconds: 3600, joules: 35.64),
    ]

    static let sampleStatus = DaemonStatus(
        version: "0.1.0-test", uptime: 12.5,
        source: .init(kind: .gpsd, description: "localhost:2947", connected: true, watching: true, lastError: nil),
        databasePath: "/tmp/waymark.sqlite", regionCount: 0,
        counters: [DaemonStatus.Counter.fixesRecorded: 3, DaemonStatus.Counter.eventsRecorded: 1, DaemonStatus.Counter.fixesDropped: 2],
        subscriptions: [
            SubscriptionStatus(
                name: "ride-log", services: ["significantChange", "visits"], precision: "approximate", accepted: 2,
                dropped: ["timeBackwards": 1], events: ["significantChange": 1])
        ],
        power: .init(
            gnssProfile: "ublox-m8-usb", gnssState: "off", sampler: .sleeping, sleepingUntil: time(600), bluetoothProfile: "ble-adapter",
            gnssJoules: 41.85))
}
