import WaymarkCore

/// What a phone's tracking costs it (docs/semantics.md §4.4), from what the server sees of it or a
/// simulator knows: the mode over time and each report. Move mode keeps the GNSS tracking all along
/// (`phone-gnss` `tracking`); significant mode keeps it off and takes a network fix per report (a
/// Wi-Fi scan, `phone-wifi` `scanning` for `start_seconds.network_fix`); each report wakes the radio
/// that carried it, priced by the tail model (`NetworkEnergy`: promotion, transfer, tail — so reports
/// closer together than LTE's ~11.6 s tail keep the modem up all along). An offline report
/// (OwnTracks `conn` `o`) is queued and its bytes go with the next report that gets through.
///
/// Only the tracking's share is priced: a radio that Waymark's reports do not wake is `off` for it,
/// whatever else the phone does with it. Pure; times come from the caller, and a time before the
/// latest one fed is taken as the latest (a clock stepping back must not unprice what was spent).
public struct PhoneEnergyModel: Sendable {
    /// The party reports are charged to in the radios' ledgers.
    static let party = "report"

    public let profiles: PhoneProfiles
    /// Seconds a phone in move mode may stay silent before its time counts as unknown: past that,
    /// Waymark cannot tell whether the app still tracks (killed, phone off), so it does not price
    /// a GNSS it has no sign of.
    public let staleSeconds: Double

    private var mode: PhoneMode?
    /// Time accounted up to (nil before the first thing fed).
    private var accounted: Timestamp?
    /// The last sign of life: a report or a mode change.
    private var heard: Timestamp?
    private var radios: [Radio: NetworkEnergy] = [:]
    private var totals = PhoneEnergyEstimate()
    private var queuedBytes = 0

    public init(profiles: PhoneProfiles = .default, staleSeconds: Double = 3600) {
        self.profiles = profiles
        self.staleSeconds = max(staleSeconds, 0)
        totals.profile = profiles.name
    }

    /// The mode the phone is in from `time` on; nil when it is not known (a report without `m`,
    /// or quiet/manual monitoring): that time is counted apart and the GNSS not priced.
    public mutating func setMode(_ mode: PhoneMode?, at time: Timestamp) {
        let time = advance(to: time)
        self.mode = mode
        heard = time
    }

    /// The mode the phone is in, as last set.
    public var currentMode: PhoneMode? { mode }

    /// A report at `time`: `bytesSent` by the phone (the request) and `bytesReceived` (the reply),
    /// carried as `connectivity` says, holding `positions` positions (an HTTP batch may carry
    /// several; a transition none): each is a network fix in significant mode.
    public mutating func report(
        at time: Timestamp, bytesSent: Int, bytesReceived: Int, connectivity: PhoneConnectivity, positions: Int = 1
    ) {
        let time = advance(to: time)
        heard = time
        totals.reports += 1
        if mode == .significant && positions > 0 {
            totals.networkFixes += positions
            totals.joules[.wifi, default: 0] += Double(positions) * profiles.networkFixSeconds * profiles.scanningWatts
        }
        let bytes = max(bytesSent, 0) + max(bytesReceived, 0)
        guard let radio = connectivity.radio else {
            totals.queuedReports += 1
            queuedBytes += bytes
            return
        }
        var energy = radios[radio] ?? Self.radio(radio, of: profiles, at: time)
        // Cannot throw: the time never goes back and the profile has the states the tail model uses.
        try? energy?.transfer(bytes + queuedBytes, by: Self.party, at: time)
        queuedBytes = 0
        if var energy {
            totals.joules[radio, default: 0] += Self.joules(taking: &energy, at: time)
            radios[radio] = energy
        }
    }

    /// What the tracking cost from the first thing fed to `time`, tails still running at `time`
    /// priced up to it.
    public func estimate(closingAt time: Timestamp) -> PhoneEnergyEstimate {
        var open = self
        let time = open.advance(to: time)
        for (radio, var energy) in open.radios {
            open.totals.joules[radio, default: 0] += Self.joules(taking: &energy, at: time)
        }
        return open.totals
    }

    /// Counts the time from the last thing fed to `time` in the current mode, and returns the time
    /// the model is now at.
    private mutating func advance(to time: Timestamp) -> Timestamp {
        guard let from = accounted else {
            accounted = time
            return time
        }
        let to = max(from, time)
        let span = to.seconds(since: from)
        switch mode {
        case .move:
            let live = heard.map { $0.adding(seconds: staleSeconds) } ?? from
            let moving = max(0, min(to, max(from, live)).seconds(since: from))
            totals.moveSeconds += moving
            totals.unknownSeconds += span - moving
            totals.joules[.gnss, default: 0] += moving * profiles.trackingWatts
        case .significant:
            totals.significantSeconds += span
        case nil:
            totals.unknownSeconds += span
        }
        accounted = to
        return to
    }

    private static func radio(_ radio: Radio, of profiles: PhoneProfiles, at time: Timestamp) -> NetworkEnergy? {
        try? NetworkEnergy(profile: radio == .wifi ? profiles.wifi : profiles.cellular, at: time)
    }

    private static func joules(taking energy: inout NetworkEnergy, at time: Timestamp) -> Double {
        ((try? energy.take(at: time)) ?? [:]).values.reduce(0) { $0 + $1.joules }
    }
}
