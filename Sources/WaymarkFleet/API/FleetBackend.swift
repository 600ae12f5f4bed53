import Foundation
import Logging
import WaymarkAPI
import WaymarkCore
import WaymarkDelivery
import WaymarkDevices
import WaymarkOutputs
import WaymarkRegions
import WaymarkStore
import WaymarkTimelineJob

/// The HTTP API (docs/api.md) of a fleet's api node (`waymark serve --fleet --role api`):
/// the single daemon's routes and JSON over the fleet's PostgreSQL, its live stream from the
/// bus. What only a single daemon has (handlers, the energy ledger, explanations) answers 501
/// `not-in-fleet` saying why (docs/fleet.md, "API and web page").
struct FleetBackend: DaemonBackend {
    let database: FleetDatabase
    let feed: FleetLiveFeed
    let node: String
    let startedAt: ContinuousClock.Instant
    let version: String
    let logger: Logger

    func status() async -> DaemonStatus {
        var status = DaemonStatus(
            version: version, uptime: (ContinuousClock.now - startedAt).fleetSeconds,
            source: .init(kind: .fleet, description: "fleet node \(node)", connected: true, watching: true),
            databasePath: database.address.description, regionCount: 0)
        do {
            let counts = try await database.historyCounts()
            status.counters = [DaemonStatus.Counter.fixesRecorded: counts.fixes, DaemonStatus.Counter.eventsRecorded: counts.events]
            status.regionCount = try await database.regions().regions.count
            let latest = try await database.latestFixes()
            status.devices = latest.map { DeviceActivity(device: $0.device, lastFix: HistoryEntry(.fix($0))) }
            status.outputs = try await database.outputs().map { OutputStatus($0) }
        } catch {
            status.source.connected = false
            status.source.lastError = "\(database.address): \(FleetDatabase.describe(error))"
        }
        return status
    }

    // MARK: History

    func lastFix(device: String) async throws -> HistoryEntry? {
        try await requireDevice(device)
        return try await database.lastFix(device: device).map { HistoryEntry(.fix($0)) }
    }

    func history(_ request: HistoryRequest) async throws -> [HistoryEntry] {
        let query = FleetHistoryQuery(from: request.from, to: request.to, devices: request.devices, limit: request.limit)
        let wants = { (kind: String) in request.kinds.isEmpty || request.kinds.contains(kind) }
        // The fleet records no gaps: a phone's silence is not a receiver's loss of fix.
        let fixes = wants("fix") ? try await database.fixes(query).map { HistoryEntry(.fix($0)) } : []
        let events = wants("event") ? try await database.events(query).map { HistoryEntry(.event($0)) } : []
        let merged = Self.merge(fixes, events)
        return Array(merged.prefix(request.limit ?? merged.count))
    }

    func fixDays(device: String, timeZone: TimeZone) async throws -> [FixDay] {
        try await requireDevice(device)
        return try await database.fixDays(device: device, timeZone: timeZone.identifier)
    }

    /// Two time-ordered lists as one, fixes before events at the same instant (as the daemon's
    /// history has a fix before the event it caused).
    static func merge(_ fixes: [HistoryEntry], _ events: [HistoryEntry]) -> [HistoryEntry] {
        fixes.orderedMerge(with: events) { $0.time <= $1.time }
    }

    func live() async -> AsyncStream<[HistoryEntry]> { feed.subscribe() }

    func export(_ request: ExportRequest) async throws -> [UInt8] {
        try await requireDevice(request.device)
        return try await FleetExport.bytes(request, database: database, logger: logger)
    }

    // MARK: Regions

    func regions() async throws -> [Region] { try await database.regions().regions }

    func importRegions(_ regions: [Region], replace: Bool) async throws -> ImportReport {
        try await FleetRegionImport.run(regions, replace: replace, database: database, logger: logger)
    }

    func removeRegion(identifier: String) async throws -> Bool {
        try await database.removeRegions([identifier]) > 0
    }

    func regionState(identifier: String, device: String) async throws -> RegionStateInfo? {
        try await requireDevice(device)
        guard let state = try await database.regionState(device: device, region: identifier) else { return nil }
        guard let inside = state.inside else { return RegionStateInfo(identifier: identifier, state: "unknown") }
        return RegionStateInfo(identifier: identifier, state: inside ? "inside" : "outside", since: state.since)
    }

    /// Throws 404 `no-device` unless `device` is in the fleet's `devices` table (a fleet has no
    /// `local` receiver).
    private func requireDevice(_ device: String) async throws {
        guard try await database.device(named: device) != nil else { throw APIError.noDevice(device) }
    }

    // MARK: Devices

    func devices() async throws -> [Device] { try await database.devices() }

    func addDevice(name: String, user: String?) async throws -> (Device, DeviceSecret) {
        try await database.addDevice(name: name, user: user, at: .fleetNow)
    }

    func newDeviceSecret(name: String) async throws -> (Device, DeviceSecret)? { try await database.newDeviceSecret(name: name) }

    func removeDevice(name: String) async throws -> Bool { try await database.removeDevice(name: name) }

    func disagreements(device: String, from: Timestamp, to: Timestamp, tolerance: Double) async throws -> String? {
        throw Self.notInFleet(
            "phone and server side by side", "it compares the daemon's stored transitions with the phone's reports row by row in SQLite")
    }

    // MARK: Outputs

    func outputs() async throws -> [OutputStatus] { try await database.outputs().map { OutputStatus($0) } }

    func addOutput(_ output: Output) async throws -> Output { try await database.addOutput(output) }

    func removeOutput(name: String) async throws -> Bool { try await database.removeOutput(name: name) }

    func retryOutput(name: String) async throws -> Int? {
        throw Self.notInFleet(
            "retrying dead letters", "a fleet output's cursor is its JetStream consumer, which cannot be moved back for one output's dead letters")
    }

    func testOutput(name: String) async throws -> OutputTestResult? {
        guard let output = try await database.outputs().first(where: { $0.name == name }) else { return nil }
        let (delivered, answer) = await OutputTester.test(output)
        return OutputTestResult(output: name, delivered: delivered, answer: answer)
    }

    // MARK: Single daemon only

    func explainEvent(id: Int64) async throws -> EventExplainAnswer? {
        throw Self.notInFleet("explanations", "an explanation replays the device's stored fixes through the daemon's own store")
    }

    func energy(since: Timestamp?) async throws -> [EnergyBucket] {
        throw Self.notInFleet("the energy ledger", "it accounts for the radios of the machine running the daemon; fleet nodes have none")
    }

    func phoneEnergy(device: String, since: Timestamp?) async throws -> [PhoneEnergyBucket] {
        throw Self.notInFleet(
            "a phone's energy estimate",
            "it follows one device's reports, with their request and reply sizes, in the process that answered them; a fleet's ingest nodes each see only some of them")
    }

    func imports() async throws -> HistoryImports {
        throw Self.notInFleet(
            "importing history files",
            "an import writes a daemon's SpatiaLite store; import into a SQLite store with `waymark import FILE --device NAME --db STORE`, then move it in with `waymark fleet import --db STORE`")
    }

    func timeline(_ request: TimelineRequest) async throws -> Timeline {
        throw Self.notInFleet(
            "the timeline",
            "the timeline job keeps its stays and trips in a daemon's SpatiaLite store and reads the history from it; a fleet's history is in PostgreSQL")
    }

    func handlers() async -> [String] { [] }

    func registerHandler(_ body: [UInt8], replace: Bool) async throws -> String { throw Self.noHandlers }

    func removeHandler(name: String) async throws -> Bool { throw Self.noHandlers }

    func reloadHandlers() async throws { throw Self.noHandlers }

    func handler(_ command: HandlerCommand, name: String) async throws -> Bool { throw Self.noHandlers }

    func pushHandler(name: String, data: String) async throws -> PushResult { throw Self.noHandlers }

    static let noHandlers = notInFleet(
        "handlers", "a handler is a program the daemon launches and suspends on the receiver's machine; a fleet's events reach their users through outputs")

    /// 501 `not-in-fleet`: what only the single daemon does, and why.
    static func notInFleet(_ what: String, _ why: String) -> APIError {
        APIError(.notImplemented, code: "not-in-fleet", message: "\(what): single daemon only (\(why); docs/fleet.md, \"API and web page\")")
    }
}

extension Duration {
    var fleetSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

extension Timestamp {
    static var fleetNow: Timestamp { Timestamp(date: Date()) }
}
