import Foundation
import WaymarkCore
import WaymarkPower
import WaymarkRegions

/// A phone running OwnTracks, played along a recorded track (docs/devices.md, "Phone
/// simulator"): it reports as the app does in its monitoring mode, runs the OS's geofencing of
/// the circles it holds, obeys the remote commands it is sent (when remote configuration is
/// on), and keeps account of what that cost (`PhoneAccount`).
///
/// Pull-driven, so the same value serves tests and the `waymark simulate phone` driver: ask
/// ``next()`` for the next message the phone sends (the truth advances second by second until
/// one is due), hand the daemon's answer to ``receive(reply:)``, repeat. Pure and deterministic:
/// the same track, settings and seed give the same messages.
///
/// The model, per mode:
/// - **move** (iOS's OwnTracks, booklet "Location data"): the GNSS is on; a location as soon as
///   the phone has moved `locatorDisplacement` metres from its last report or `locatorInterval`
///   seconds have passed, whichever comes first (defaults 100 m and 300 s, the app's). Accuracy
///   5–10 m, with an error that wanders (Gauss–Markov, 30 s).
/// - **significant** (Core Location's significant-change service): a location once the phone
///   has moved 500 m from its last report and at least 5 minutes have passed. Network
///   positions: accuracy 65–200 m, the error of that order and independent between reports.
/// - **geofencing**, in both modes: each held circle (at most 20 watched, iOS's limit per
///   app) is entered or left only once the phone has been past its boundary by `geofenceMargin`
///   (50 m, at most half the radius inside) for `geofenceDwell` (20 s) without interruption, as
///   Apple documents; then a `transition`. A region's state when it is added is taken silently.
/// - A mode switch (or `reportLocation`) gives a location at the next second: the location
///   service restarting delivers its current fix, which is what confirms the switch.
public struct PhoneSimulator: Sendable {
    public struct Settings: Sendable {
        public var mode: PhoneMode
        /// Whether the user allowed remote configuration; without it every command is ignored.
        public var remoteConfiguration: Bool
        public var seed: UInt64
        /// Move mode's interval (s) and displacement (m), until a command changes them.
        public var locatorInterval = 300.0
        public var locatorDisplacement = 100.0
        /// Core Location's significant change: 500 m, not more often than every 300 s.
        public var significantDistance = 500.0
        public var significantInterval = 300.0
        public var gnssAccuracy: ClosedRange<Double> = 5...10
        public var networkAccuracy: ClosedRange<Double> = 65...200
        /// Apple: a crossing counts once the device is past the boundary by a margin for 20 s.
        public var geofenceMargin = 50.0
        public var geofenceDwell = 20.0
        /// Regions an app may monitor at once on iOS.
        public var monitoredRegionLimit = 20
        public var battery = 100
        public var connection = "m"
        public var trackerID = "ph"

        public init(mode: PhoneMode = .significant, remoteConfiguration: Bool = true, seed: UInt64 = 1) {
            self.mode = mode
            self.remoteConfiguration = remoteConfiguration
            self.seed = seed
        }
    }

    public let settings: Settings
    public private(set) var mode: PhoneMode
    public private(set) var locatorInterval: Double
    public private(set) var locatorDisplacement: Double
    public internal(set) var account = PhoneAccount()
    /// The waypoints the phone holds, in the order they were added.
    public internal(set) var waypoints: [HeldWaypoint] = []

    private var truth: PhoneTruth
    private var now: PhoneTruth.Sample?
    private var lastReport: (time: Timestamp, coordinate: Coordinate)?
    private var reportDue: String??
    var outbox: [PhoneMessage] = []
    private var random: SplitMix64
    private var gnssError = (north: 0.0, east: 0.0, time: Timestamp?.none)
    var truthRegions: TruthRegions?

    /// - Parameters:
    ///   - track: the recorded track (its timed points; the truth is linear between them).
    ///   - regions: every region there is, as truth for counting window misses; nil to skip.
    public init(track: [Fix], settings: Settings, regions: [Region]? = nil) {
        self.settings = settings
        mode = settings.mode
        locatorInterval = settings.locatorInterval
        locatorDisplacement = settings.locatorDisplacement
        truth = PhoneTruth(track: track)
        random = SplitMix64(seed: settings.seed)
        truthRegions = regions.map(TruthRegions.init)
    }

    /// The time of the last second played (nil before the first).
    public var playedUntil: Timestamp? { now?.time }

    /// Whether the track has any timed point to play.
    public var hasTrack: Bool { !truth.isEmpty }

    /// The next message the phone sends; nil once the track is over.
    public mutating func next() -> PhoneMessage? {
        while outbox.isEmpty {
            guard let sample = truth.next() else { return nil }
            advance(to: sample)
        }
        let message = outbox.removeFirst()
        let bytes = message.json.utf8.count
        account.bytesSent += bytes
        account.uploads.append(PhoneUpload(time: message.time, bytesSent: bytes, bytesReceived: 0))
        return message
    }

    /// The daemon's answer to the last message (HTTP's body) or a message on the phone's
    /// command topic (MQTT): its commands are applied now, at the phone's current time.
    public mutating func receive(reply: String) {
        let bytes = reply.utf8.count
        account.bytesReceived += bytes
        if !account.uploads.isEmpty { account.uploads[account.uploads.count - 1].bytesReceived += bytes }
        let commands: [PhoneCommand]
        do { commands = try PhoneCommand.parse(reply) } catch {
            account.repliesUnreadable += 1
            return
        }
        for command in commands { apply(command) }
    }

    /// Applies one command as the app would (or ignores it, remote configuration off).
    public mutating func apply(_ command: PhoneCommand) {
        account.commandsReceived += 1
        guard settings.remoteConfiguration else {
            account.commandsIgnored += 1
            return
        }
        switch command {
        case .setConfiguration(let monitoring, let interval, let displacement):
            if let interval, interval > 0 { locatorInterval = interval }
            if let displacement, displacement >= 0 { locatorDisplacement = displacement }
            if let monitoring {
                guard let next = PhoneMode(ownTracksMonitoring: monitoring) else {
                    account.commandsIgnored += 1
                    return
                }
                switchMode(to: next)
            }
        case .setWaypoints(let list):
            for waypoint in list { hold(waypoint) }
            account.maxWaypointsHeld = max(account.maxWaypointsHeld, waypoints.count)
        case .clearWaypoints:
            waypoints.removeAll()
        case .reportLocation:
            reportDue = .some("r")
        case .other:
            account.commandsIgnored += 1
            return
        }
        account.commandsObeyed += 1
    }

    private mutating func switchMode(to next: PhoneMode) {
        guard next != mode else { return }
        mode = next
        account.modeSwitches += 1
        if let time = now?.time { account.modeChanges.append((time, next)) }
        if reportDue == nil { reportDue = .some(nil) }
    }

    private mutating func hold(_ waypoint: PhoneWaypoint) {
        if let index = waypoints.firstIndex(where: { $0.waypoint.key == waypoint.key }) {
            if waypoints[index].waypoint.circle?.center != waypoint.circle?.center || waypoints[index].waypoint.radius != waypoint.radius {
                waypoints[index] = HeldWaypoint(waypoint: waypoint)
            } else {
                waypoints[index].waypoint = waypoint
            }
        } else {
            waypoints.append(HeldWaypoint(waypoint: waypoint))
        }
    }

    /// One second of the truth: time in mode, window misses, geofencing, then the mode's report.
    private mutating func advance(to sample: PhoneTruth.Sample) {
        if let previous = now {
            account.secondsInMode[mode, default: 0] += sample.time.seconds(since: previous.time)
        } else {
            account.modeChanges.append((sample.time, mode))
        }
        now = sample
        countEntries(at: sample)
        watchRegions(at: sample)
        if let trigger = reportTrigger(at: sample) {
            reportDue = nil
            lastReport = (sample.time, sample.coordinate)
            var message = observe(sample, kind: .location(trigger: trigger))
            message.mode = mode
            account.locations[mode, default: 0] += 1
            emit(message)
        }
    }

    mutating func emit(_ message: PhoneMessage) { outbox.append(message) }

    /// Why the phone reports at this second (the `t` it sends, `.some(nil)` for none), or nil
    /// when it does not.
    private func reportTrigger(at sample: PhoneTruth.Sample) -> String?? {
        if let reportDue { return reportDue }
        guard let lastReport else { return .some(nil) }
        let elapsed = sample.time.seconds(since: lastReport.time)
        let moved = Geodesic.distance(lastReport.coordinate, sample.coordinate)
        switch mode {
        case .move:
            if moved >= locatorDisplacement { return .some(nil) }
            if elapsed >= locatorInterval { return .some("t") }
        case .significant:
            if moved >= settings.significantDistance && elapsed >= settings.significantInterval { return .some(nil) }
        }
        return nil
    }

    /// The phone's fix of `sample` in its current mode: the truth moved by the mode's error.
    mutating func observe(_ sample: PhoneTruth.Sample, kind: PhoneMessage.Kind) -> PhoneMessage {
        let accuracy: Double
        var north: Double, east: Double
        switch mode {
        case .move:
            account.gnssFixes += 1
            accuracy = random.uniform(settings.gnssAccuracy)
            let perAxis = accuracy / 2.0.squareRoot()
            let a = gnssError.time.map { exp(-max(0, sample.time.seconds(since: $0)) / 30) } ?? 0
            let spread = (1 - a * a).squareRoot() * perAxis
            north = a * gnssError.north + spread * random.nextGaussian()
            east = a * gnssError.east + spread * random.nextGaussian()
            gnssError = (north, east, sample.time)
        case .significant:
            account.networkFixes += 1
            accuracy = random.uniform(settings.networkAccuracy)
            let perAxis = accuracy / 2.0.squareRoot()
            north = perAxis * random.nextGaussian()
            east = perAxis * random.nextGaussian()
        }
        return PhoneMessage(
            kind: kind, time: sample.time, coordinate: FixNoise.offset(sample.coordinate, north: north, east: east),
            accuracy: Int(accuracy.rounded()), speed: Int((sample.speed * 3.6).rounded()),
            course: sample.course.map { Int($0.rounded()) % 360 }, mode: mode, battery: settings.battery,
            connection: settings.connection, trackerID: settings.trackerID)
    }
}
