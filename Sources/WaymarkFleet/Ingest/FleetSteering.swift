import Synchronization
import WaymarkCore
import WaymarkSources
import WaymarkSteering

/// What an ingest node tells phones (docs/fleet.md, docs/devices.md "Regions on the phone"):
/// one `PhoneSteering` per device, as the single daemon keeps them (`DeviceFleet.steer`), so
/// both runtimes send a phone the same commands after the same reports. The state is the node's
/// own: behind several ingest nodes a phone may be sent its window by each (harmless: the same
/// regions again). Devices not heard from for `idleLimit` are forgotten, so memory follows the
/// active phones, not every phone ever seen; a forgotten phone is sent a fresh window.
final class FleetSteering: Sendable {
    private struct Device {
        var steering: PhoneSteering
        var heard: ContinuousClock.Instant
    }

    private struct State {
        var regions: SteeringRegions
        var version: Int64
        var devices: [String: Device] = [:]
        var swept: ContinuousClock.Instant
    }

    /// How long a device's steering is kept without a report.
    static let idleLimit: Duration = .seconds(24 * 3600)

    private let database: FleetDatabase
    private let settings: SteeringSettings
    private let state: Mutex<State>

    init(database: FleetDatabase, settings: SteeringSettings) {
        self.database = database
        self.settings = settings
        state = Mutex(State(regions: SteeringRegions(regions: [], created: [:], version: 0), version: -1, swept: .now))
    }

    var currentVersion: Int64 { state.withLock { $0.version } }

    /// Reloads the regions if the database holds a newer version; returns the version in use.
    @discardableResult
    func refresh() async throws -> Int64 {
        let known = currentVersion
        guard try await database.regionsVersion() != known else { return known }
        let (regions, importedAt, version) = try await database.regions()
        let steeringRegions = SteeringRegions(regions: regions, created: importedAt, version: UInt64(bitPattern: version))
        state.withLock {
            $0.regions = steeringRegions
            $0.version = version
        }
        return version
    }

    /// The commands for `device` after `report`, each one JSON object.
    func commands(for device: String, after report: PhoneReport?) -> [String] {
        let now = ContinuousClock.now
        return state.withLock { state in
            if now - state.swept > .seconds(3600) {
                state.devices = state.devices.filter { now - $0.value.heard < Self.idleLimit }
                state.swept = now
            }
            var entry = state.devices[device] ?? Device(steering: PhoneSteering(device: device, settings: settings), heard: now)
            entry.heard = now
            let commands = entry.steering.commands(after: report, regions: state.regions)
            state.devices[device] = entry
            return commands
        }
    }

    /// Devices whose steering is held (for tests and diagnostics).
    var deviceCount: Int { state.withLock { $0.devices.count } }
}
