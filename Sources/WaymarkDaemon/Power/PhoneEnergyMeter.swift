import Logging
import Synchronization
import WaymarkCore
import WaymarkPower
import WaymarkSources
import WaymarkStore

/// Each network device's energy estimate (docs/semantics.md §4.4): the device listener and the
/// MQTT feed tell it every report (its messages and the bytes each way), a `PhoneEnergyModel` per
/// device prices it on the daemon's clock, and `take` hands over hourly rows for the store — the
/// same flush as the radios' ledger (hourly, on `GET /v1/power`, at shutdown), so a report costs
/// a lock and some arithmetic, never a write.
///
/// The mode is the `m` of the latest location (1 significant, 2 move); a location without one,
/// or quiet/manual monitoring, is time in no known mode, reported as such. OsmAnd and Traccar
/// clients say nothing of their mode or radio: their reports are priced as mobile data in no
/// known mode.
public final class PhoneEnergyMeter: Sendable {
    public let profiles: PhoneProfiles
    private let clock: any WallClock
    private let state = Mutex(State())

    private struct State: Sendable {
        var devices: [String: Device] = [:]
        /// Rows of closed hours not yet taken.
        var closed: [PhoneEnergyBucket] = []
    }

    private struct Device: Sendable {
        var model: PhoneEnergyModel
        /// The estimate as of `since`, already in rows.
        var taken: PhoneEnergyEstimate
        var since: Timestamp
    }

    public init(profiles: PhoneProfiles = .default, clock: any WallClock) {
        self.profiles = profiles
        self.clock = clock
    }

    /// An OwnTracks exchange: `messages` in a request (or an MQTT publish) of `requestBytes`,
    /// answered with `replyBytes`. The broker's last will is not the phone's.
    public func ownTracks(_ messages: [OwnTracksMessage], device: String, requestBytes: Int, replyBytes: Int) {
        let reported = messages.filter { if case .lastWill = $0 { false } else { true } }
        guard !reported.isEmpty else { return }
        let locations = reported.compactMap { if case .location(let location) = $0 { location } else { nil } }
        let latest = locations.last
        update(device) { model, now in
            if let latest { model.setMode(latest.monitoringMode.flatMap(PhoneMode.init(ownTracksMonitoring:)), at: now) }
            let connectivity = latest?.connectivity.flatMap(PhoneConnectivity.init(ownTracksConn:)) ?? .mobile
            model.report(at: now, bytesSent: requestBytes, bytesReceived: replyBytes, connectivity: connectivity, positions: locations.count)
        }
    }

    /// An OsmAnd/Traccar report: mobile data, no known mode.
    public func osmAnd(device: String, requestBytes: Int, replyBytes: Int) {
        update(device) { model, now in
            if model.currentMode != nil { model.setMode(nil, at: now) }
            model.report(at: now, bytesSent: requestBytes, bytesReceived: replyBytes, connectivity: .mobile)
        }
    }

    /// The estimate for `device` so far in this daemon's life (nil when it has not reported).
    public func estimate(device: String) -> PhoneEnergyEstimate? {
        let now = clock.now
        return state.withLock { $0.devices[device]?.model.estimate(closingAt: now) }
    }

    /// Every device's estimate since the last take, in hourly rows, handed over.
    public func take() -> [PhoneEnergyBucket] {
        let now = clock.now
        return state.withLock { state in
            for name in state.devices.keys.sorted() {
                Self.close(name, upTo: now, in: &state)
                Self.cut(name, at: now, in: &state)
            }
            defer { state.closed = [] }
            return state.closed
        }
    }

    /// Rows taken but not stored (the store failed): given back for the next take.
    public func giveBack(_ rows: [PhoneEnergyBucket]) {
        state.withLock { $0.closed = rows + $0.closed }
    }

    private func update(_ device: String, _ change: (inout PhoneEnergyModel, Timestamp) -> Void) {
        let now = clock.now
        let profiles = profiles
        state.withLock { state in
            if state.devices[device] == nil {
                state.devices[device] = Device(model: PhoneEnergyModel(profiles: profiles), taken: PhoneEnergyEstimate(), since: now)
            }
            // Hours that ended since the last row are cut first, so each row holds its own hour.
            Self.close(device, upTo: now, in: &state)
            change(&state.devices[device]!.model, now)
        }
    }

    /// Cuts a row at every hour boundary between the device's last row and `time`.
    private static func close(_ device: String, upTo time: Timestamp, in state: inout State) {
        guard let since = state.devices[device]?.since else { return }
        var boundary = since.hourStart.adding(seconds: 3600)
        while boundary <= time {
            cut(device, at: boundary, in: &state)
            boundary = boundary.adding(seconds: 3600)
        }
    }

    /// A row for what the device spent from its last row to `time` (within one hour).
    private static func cut(_ device: String, at time: Timestamp, in state: inout State) {
        guard var entry = state.devices[device], time > entry.since else { return }
        let now = entry.model.estimate(closingAt: time)
        let delta = now.since(entry.taken)
        let span = time.seconds(since: entry.since)
        if delta.reports > 0 || delta.total > 0 || delta.durationSeconds > 0 {
            // Never more than the span in a mode: a clock step back must not break the hour's CHECK.
            func seconds(_ value: Double) -> Double { min(max(value, 0), span) }
            state.closed.append(PhoneEnergyBucket(
                device: device, hour: entry.since.hourStart, profile: now.profile,
                gnssJoules: max(delta.joules[.gnss] ?? 0, 0), wifiJoules: max(delta.joules[.wifi] ?? 0, 0),
                cellularJoules: max(delta.joules[.cellular] ?? 0, 0), moveSeconds: seconds(delta.moveSeconds),
                significantSeconds: seconds(delta.significantSeconds), unknownSeconds: seconds(delta.unknownSeconds),
                reports: max(delta.reports, 0), queuedReports: max(delta.queuedReports, 0), networkFixes: max(delta.networkFixes, 0)))
        }
        entry.taken = now
        entry.since = time
        state.devices[device] = entry
    }
}

extension PhoneEnergyMeter {
    /// Stores the rows accounted up to now, off the cooperative pool; on a store failure they wait
    /// for the next flush (the store adds equal rows up).
    func flush(to store: WaymarkStore, logger: Logger) async {
        let rows = take()
        guard !rows.isEmpty else { return }
        do {
            try await store.offPool { try $0.addPhoneEnergy(rows) }
        } catch {
            giveBack(rows)
            logger.error("Cannot store the phones' energy", metadata: ["error": "\(error)"])
        }
    }
}
