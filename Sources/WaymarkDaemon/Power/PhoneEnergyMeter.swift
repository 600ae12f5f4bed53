import Logging
import Synchronization
import WaymarkCore
import WaymarkPower
import WaymarkSources
import WaymarkStore

/// Each network device's energy estimate (docs/semantics.md §4.4): the device listener and the
/// MQTT feed tell it every report (its messages and the bytes each way), a `PhoneEnergyModel` per
/// device prices it on the device's own clock (below), and `take` hands over hourly rows for the store — the
/// same flush as the radios' ledger (hourly, on `GET /v1/power`, at shutdown), so a report costs
/// a lock and some arithmetic, never a write.
///
/// The mode is the `m` of the latest location (1 significant, 2 move); a location without one,
/// or quiet/manual monitoring, is time in no known mode, reported as such. OsmAnd and Traccar
/// clients say nothing of their mode or radio: their reports are priced as mobile data in no
/// known mode.
///
/// The device's clock is its reports' times (a location's `tst`), moved on by the daemon's clock
/// between reports: a live phone's reports arrive as they are made, so the two agree, while a
/// backlog, a replayed or a simulated phone (whose hour of reports may arrive in seconds) is
/// priced over the time it reported, not the time the daemon took to hear it. It never steps
/// back: a report older than the device's clock (a queued one) is priced at the clock.
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
        /// The device's clock at its last report, and the daemon's then.
        var reportedAt: Timestamp
        var receivedAt: Timestamp

        /// The device's clock when the daemon's reads `now`.
        func time(at now: Timestamp) -> Timestamp { reportedAt.adding(seconds: max(0, now.seconds(since: receivedAt))) }
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
        update(device, reportedAt: locations.compactMap(\.fix.time).max()) { model, now in
            if let latest { model.setMode(latest.monitoringMode.flatMap(PhoneMode.init(ownTracksMonitoring:)), at: now) }
            let connectivity = latest?.connectivity.flatMap(PhoneConnectivity.init(ownTracksConn:)) ?? .mobile
            model.report(at: now, bytesSent: requestBytes, bytesReceived: replyBytes, connectivity: connectivity, positions: locations.count)
        }
    }

    /// An OsmAnd/Traccar report: mobile data, no known mode.
    public func osmAnd(device: String, requestBytes: Int, replyBytes: Int) {
        update(device, reportedAt: nil) { model, now in
            if model.currentMode != nil { model.setMode(nil, at: now) }
            model.report(at: now, bytesSent: requestBytes, bytesReceived: replyBytes, connectivity: .mobile)
        }
    }

    /// The estimate for `device` so far in this daemon's life (nil when it has not reported).
    public func estimate(device: String) -> PhoneEnergyEstimate? {
        let now = clock.now
        return state.withLock { state in state.devices[device].map { $0.model.estimate(closingAt: $0.time(at: now)) } }
    }

    /// Every device's estimate since the last take, in hourly rows, handed over.
    public func take() -> [PhoneEnergyBucket] {
        let now = clock.now
        return state.withLock { state in
            for name in state.devices.keys.sorted() {
                guard let time = state.devices[name]?.time(at: now) else { continue }
                Self.close(name, upTo: time, in: &state)
                Self.cut(name, at: time, in: &state)
            }
            defer { state.closed = [] }
            return state.closed
        }
    }

    /// Rows taken but not stored (the store failed): given back for the next take.
    public func giveBack(_ rows: [PhoneEnergyBucket]) {
        state.withLock { $0.closed = rows + $0.closed }
    }

    /// Prices a report made at `reportedAt` (nil: untimed, now on the device's clock).
    private func update(_ device: String, reportedAt: Timestamp?, _ change: (inout PhoneEnergyModel, Timestamp) -> Void) {
        let now = clock.now
        let profiles = profiles
        state.withLock { state in
            let time: Timestamp
            if let entry = state.devices[device] {
                let clock = entry.time(at: now)
                time = reportedAt.map { max($0, clock) } ?? clock
            } else {
                time = reportedAt ?? now
                state.devices[device] = Device(
                    model: PhoneEnergyModel(profiles: profiles), taken: PhoneEnergyEstimate(), since: time, reportedAt: time, receivedAt: now)
            }
            state.devices[device]!.reportedAt = time
            state.devices[device]!.receivedAt = now
            // Hours that ended since the last row are cut first, so each row holds its own hour.
            Self.close(device, upTo: time, in: &state)
            change(&state.devices[device]!.model, time)
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
