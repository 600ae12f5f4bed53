import Foundation
import Logging
import WaymarkAPI
import WaymarkCore
import WaymarkDelivery
import WaymarkDevices
import WaymarkHandlers
import WaymarkOutputs
import WaymarkRegions
import WaymarkStore
import WaymarkTimelineJob

/// The daemon as the API sees it: the store for history and regions, the pipeline for what is
/// happening now. Every store call runs off the cooperative pool (`WaymarkStore.offPool`).
struct DaemonState: DaemonBackend {
    let store: WaymarkStore
    let pipeline: LivePipeline
    /// The network devices' pipelines: new regions reach them too.
    let fleet: DeviceFleet
    /// What the network listener remembers of devices: cleared by every change made here.
    let directory: DeviceDirectory
    let feed: LiveFeed
    let startedAt: ContinuousClock.Instant
    let version: String
    let supervisor: HandlerSupervisor
    /// The outputs' workers: restarted from the store by every change made here.
    let outputService: OutputService
    /// Uploaded history files being imported (`POST /v1/imports`).
    let historyImports: HistoryImports
    /// `GET /v1/timeline`: the timeline job over the store, with the place data read once.
    let timelines: StoreTimelines
    /// Each network device's energy estimate (docs/semantics.md §4.4).
    var phoneEnergy: PhoneEnergyMeter? = nil

    func status() async -> DaemonStatus {
        let snapshot = pipeline.snapshot()
        let elapsed = ContinuousClock.now - startedAt
        var status = DaemonStatus(
            version: version,
            uptime: elapsed.inSeconds,
            source: .init(
                kind: snapshot.source.kind, description: snapshot.source.description,
                connected: snapshot.source.connected, watching: snapshot.source.watching,
                lastError: snapshot.source.lastError),
            lastFix: snapshot.lastFix,
            databasePath: store.path ?? ":memory:",
            regionCount: snapshot.regionCount,
            counters: snapshot.counters, subscriptions: snapshot.subscriptions, beaconSource: snapshot.beaconSource,
            power: snapshot.power)
        status.devices = await fleet.activity()
        if let (outputs, newest) = try? await store.offPool({ store in (try store.outputs(), try store.newestEventID()) }) {
            status.outputs = outputs.map { OutputStatus($0, activity: outputService.activity.activity(of: $0.name)) }
            status.newestEvent = newest
        }
        return status
    }

    func devices() async throws -> [Device] { try await store.offPool { try $0.devices() } }

    func addDevice(name: String, user: String?) async throws -> (Device, DeviceSecret) {
        defer { directory.clear() }
        return try await store.offPool { try $0.addDevice(name: name, user: user, at: .now) }
    }

    func newDeviceSecret(name: String) async throws -> (Device, DeviceSecret)? {
        defer { directory.clear() }
        return try await store.offPool { try $0.newDeviceSecret(device: name) }
    }

    func removeDevice(name: String) async throws -> Bool {
        defer { directory.clear() }
        return try await store.offPool { try $0.removeDevice(named: name) }
    }

    func outputs() async throws -> [OutputStatus] {
        try await store.offPool { try $0.outputs() }.map { OutputStatus($0, activity: outputService.activity.activity(of: $0.name)) }
    }

    func addOutput(_ output: Output) async throws -> Output {
        defer { outputService.reload() }
        return try await store.offPool { try $0.addOutput(output) }
    }

    func removeOutput(name: String) async throws -> Bool {
        defer { outputService.reload() }
        return try await store.offPool { try $0.removeOutput(named: name) }
    }

    func retryOutput(name: String) async throws -> Int? {
        let count = try await store.offPool { store -> Int? in
            guard try store.output(named: name) != nil else { return nil }
            return try store.requeueDeadLetters(output: name)
        }
        if count != nil { outputService.reload() }
        return count
    }

    func testOutput(name: String) async throws -> OutputTestResult? {
        guard let output = try await store.offPool({ try $0.output(named: name) }) else { return nil }
        let (delivered, answer) = await OutputTester.test(output, source: outputService.source)
        return OutputTestResult(output: name, delivered: delivered, answer: answer)
    }

    func lastFix(device: String) async throws -> HistoryEntry? {
        if let live = try await livePipeline(of: device).snapshot().lastFix { return live }
        return try await store.offPool { try $0.lastFix(device: device).map { HistoryEntry(HistoryItem.fix($0)) } }
    }

    /// `local`'s pipeline (the receiver), or a known network device's (made on first use, from
    /// its saved states, as its first fix would make it). Throws `APIError.noDevice` for a
    /// device that is neither.
    private func livePipeline(of device: String) async throws -> LivePipeline {
        if device == Device.localName { return pipeline }
        guard try await store.offPool({ try $0.device(named: device) }) != nil else { throw APIError.noDevice(device) }
        return try await fleet.pipeline(for: device)
    }

    func explainEvent(id: Int64) async throws -> EventExplainAnswer? {
        let settings = pipeline.settings
        do {
            return try await store.offPool { store in
                try store.explainEvent(id: id, settings: settings).map { EventExplainAnswer(json: $0.json, text: $0.text) }
            }
        } catch let error as ExplainError {
            throw APIError(.unprocessableContent, code: error.code.rawValue, message: error.message)
        }
    }

    func history(_ request: HistoryRequest) async throws -> [HistoryEntry] {
        let kinds = Set(request.kinds.compactMap(HistoryKind.init(rawValue:)))
        let query = HistoryQuery(
            from: request.from, to: request.to, kinds: kinds.isEmpty ? Set(HistoryKind.allCases) : kinds, limit: request.limit,
            devices: request.devices)
        return try await store.offPool { store in
            var entries: [HistoryEntry] = []
            try store.history(query) { entries.append(HistoryEntry($0)) }
            return entries
        }
    }

    func fixDays(device: String, timeZone: TimeZone) async throws -> [FixDay] {
        try await store.knownDeviceFixDays(device: device, timeZone: timeZone)
    }

    func energy(since: Timestamp?) async throws -> [EnergyBucket] {
        await pipeline.flushEnergy()
        return try await store.offPool { try $0.energy(since: since) }
    }

    /// The phone's rows, its latest figures stored first. The receiver (`local`) is no phone.
    func phoneEnergy(device: String, since: Timestamp?) async throws -> [PhoneEnergyBucket] {
        guard device != Device.localName, try await store.offPool({ try $0.device(named: device) }) != nil else {
            throw APIError.noDevice(device)
        }
        if let phoneEnergy { await phoneEnergy.flush(to: store, logger: pipeline.logger) }
        return try await store.offPool { try $0.phoneEnergy(device: device, since: since) }
    }

    func regions() async throws -> [Region] { try await store.offPool { try $0.regions() } }

    func importRegions(_ regions: [Region], replace: Bool) async throws -> ImportReport {
        let (report, stored) = try await store.offPool { (try $0.importRegions(regions, replace: replace), try $0.regions()) }
        await pipeline.adopt(stored)
        await fleet.adopt(stored)
        return report
    }

    func removeRegion(identifier: String) async throws -> Bool {
        let (removed, stored) = try await store.offPool { store in
            let removed = try store.removeRegion(identifier: identifier)
            return (removed, removed ? try store.regions() : [])
        }
        if removed {
            await pipeline.adopt(stored)
            await fleet.adopt(stored)
        }
        return removed
    }

    func regionState(identifier: String, device: String) async throws -> RegionStateInfo? {
        await (try await livePipeline(of: device)).regionState(identifier: identifier)
    }

    func export(_ request: ExportRequest) async throws -> [UInt8] {
        guard let database = store.path else {
            throw APIError(.notFound, code: "no-history", message: "this daemon keeps no history file to export from")
        }
        let logger = Logger(label: "waymark.export")
        return try await store.offPool { _ in try HistoryExport.bytes(database: database, request: request, logger: logger) }
    }

    func imports() async throws -> HistoryImports { historyImports }

    func timeline(_ request: TimelineRequest) async throws -> Timeline { try await timelines.timeline(request) }

    func live() async -> AsyncStream<[HistoryEntry]> { feed.subscribe() }

    func handlers() async -> [String] { await supervisor.status().map(\.json) }

    func registerHandler(_ body: [UInt8], replace: Bool) async throws -> String {
        let registration: HandlerRegistration
        do {
            registration = try HandlerRegistration.fromRequest(body)
            try await store.offPool { store in try registration.validate { try store.region(identifier: $0) } }
        } catch let error as HandlerError {
            throw APIError(.unprocessableContent, code: "invalid-registration", message: error.description)
        }
        let json = try registration.encoded()
        try await store.offPool { try $0.saveHandler(name: registration.name, registrationJSON: json, replace: replace, at: Timestamp.now) }
        try await reloadHandlers()
        return await supervisor.status().first { $0.name == registration.name }?.json ?? "{}"
    }

    func removeHandler(name: String) async throws -> Bool {
        guard try await store.offPool({ try $0.removeHandler(name: name) }) else { return false }
        try await reloadHandlers()
        return true
    }

    func reloadHandlers() async throws {
        try await supervisor.reload()
        let registrations = await supervisor.registrations()
        await pipeline.routeHandlers(registrations, supervisor: supervisor)
        await fleet.routeHandlers(registrations, supervisor: supervisor)
    }

    func pushHandler(name: String, data: String) async throws -> PushResult {
        switch try await supervisor.push(name, data: data) {
        case .queued(let id): .queued(id: id)
        case .noHandler: .noHandler
        case .rateLimited(let wait): .rateLimited(retryAfter: wait)
        }
    }

    func handler(_ command: HandlerCommand, name: String) async throws -> Bool {
        do {
            switch command {
            case .quit: try await supervisor.forceQuit(name)
            case .launch: try await supervisor.launchByUser(name)
            case .background: try await supervisor.moveToBackground(name)
            }
            return true
        } catch HandlerError.unknownHandler {
            return false
        }
    }
}
