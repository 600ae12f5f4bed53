import WaymarkCore
import WaymarkRegions

/// Beacon-region monitoring (docs/semantics.md §3): advertisements in time order in, entries and exits
/// out. Pure: time is the advertisements' own, or what `advance(to:)` is told.
///
/// Rules, per region:
/// - **Entry** at the first advertisement matching the region (UUID, and major and minor where
///   the region gives them) while it is not inside, stamped with the advertisement's time. This
///   includes the first sighting after registration: for a beacon region an advertisement is the
///   event itself, there is no position to establish first.
/// - **Exit** when no matching advertisement has come for the region's exit timeout (default
///   30 s; `exitTimeout` overrides it): reported once time passes the last sighting plus the
///   timeout, and stamped with that instant. A sighting exactly at the deadline keeps the region
///   inside.
/// - **Unknown** until the first sighting, or until a timeout has passed since monitoring began
///   with none: then outside, with no event (registration gives no exit).
/// - Time never goes backwards: an advertisement older than the latest time seen counts as a
///   sighting at that latest time.
///
/// An advertisement costs a hash lookup by UUID and at most four by identity (exact, major only,
/// minor only, UUID only), however many regions there are; timers sit in a heap with one entry
/// per region at most, so an advertisement for a region already inside allocates nothing.
public struct BeaconMonitor: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Seconds without a matching advertisement before an exit (a region's `exitTimeout`
        /// overrides it). 30 s: Core Location's documented beacon exit delay.
        public var exitTimeout = 30.0

        public init(exitTimeout: Double = 30.0) { self.exitTimeout = exitTimeout }
    }

    /// The beacon regions monitored (geographic ones given to `init` are left out); a
    /// transition's `regionIndex` is a position in this list.
    public let regions: [Region]
    /// Regions by identity as given (nil major or minor kept), and per UUID which of the four
    /// forms (exact, major only, minor only, UUID only) occur: an advertisement costs at most
    /// four hash lookups however many regions share its UUID.
    let byIdentity: [BeaconIdentity: [Int32]]
    let forms: [BeaconUUID: UInt8]
    let timeout: [Int64]
    let notifyOnEntry: [Bool]
    let notifyOnExit: [Bool]

    enum Membership: UInt8, Sendable {
        case unknown, inside, outside
    }

    var membership: [Membership]
    var since: [Int64]
    var lastSeen: [Int64]
    var queued: [Bool]
    var deadlines = DeadlineQueue()
    /// The latest time seen; nil before the first.
    var now: Int64?

    public init(regions: [Region], configuration: Configuration = Configuration()) {
        let beacons = regions.filter { $0.beacon != nil }
        self.regions = beacons
        var byIdentity: [BeaconIdentity: [Int32]] = [:]
        var forms: [BeaconUUID: UInt8] = [:]
        for (position, region) in beacons.enumerated() {
            let identity = region.beacon!
            byIdentity[identity, default: []].append(Int32(position))
            forms[identity.uuid, default: 0] |= Self.form(major: identity.major, minor: identity.minor)
        }
        self.byIdentity = byIdentity
        self.forms = forms
        timeout = beacons.map { Int64((($0.options.exitTimeout ?? configuration.exitTimeout) * 1e9).rounded()) }
        notifyOnEntry = beacons.map(\.options.notifyOnEntry)
        notifyOnExit = beacons.map(\.options.notifyOnExit)
        membership = Array(repeating: .unknown, count: beacons.count)
        since = Array(repeating: 0, count: beacons.count)
        lastSeen = Array(repeating: 0, count: beacons.count)
        queued = Array(repeating: false, count: beacons.count)
    }

    /// Updates the state with one advertisement: first the exits that fell due before it, then
    /// entries into the regions it matches.
    public mutating func process(_ advertisement: BeaconAdvertisement) -> BeaconUpdate {
        var update = BeaconUpdate()
        let time = max(advertisement.time.nanosecondsSince1970, now ?? Int64.min)
        advance(time, &update)
        guard let present = forms[advertisement.uuid] else { return update }
        let (uuid, major, minor) = (advertisement.uuid, advertisement.major, advertisement.minor)
        if present & 1 != 0 { sighted(BeaconIdentity(uuid: uuid, major: major, minor: minor), advertisement, time, &update) }
        if present & 2 != 0 { sighted(BeaconIdentity(uuid: uuid, major: major), advertisement, time, &update) }
        if present & 4 != 0 { sighted(BeaconIdentity(uuid: uuid, minor: minor), advertisement, time, &update) }
        if present & 8 != 0 { sighted(BeaconIdentity(uuid: uuid), advertisement, time, &update) }
        if update.transitions.count > 1 { sort(&update.transitions) }
        return update
    }

    /// A sighting for every region of `identity`.
    @inline(__always)
    private mutating func sighted(
        _ identity: BeaconIdentity, _ advertisement: BeaconAdvertisement, _ time: Int64, _ update: inout BeaconUpdate
    ) {
        guard let matching = byIdentity[identity] else { return }
        for region in matching { sighted(region, advertisement, at: time, &update) }
    }

    private mutating func sighted(_ region: Int32, _ advertisement: BeaconAdvertisement, at time: Int64, _ update: inout BeaconUpdate) {
        let r = Int(region)
        lastSeen[r] = time
        guard membership[r] != .inside else { return }
        membership[r] = .inside
        since[r] = time
        schedule(region, at: time + timeout[r])
        update.transitions.append(BeaconTransition(
            kind: .enter, regionIndex: region, identifier: regions[r].identifier,
            time: Timestamp(nanosecondsSince1970: time), lastSeen: Timestamp(nanosecondsSince1970: time),
            advertisement: advertisement, notifies: notifyOnEntry[r]))
    }

    /// One bit per form of identity: exact, major only, minor only, UUID only.
    @inline(__always)
    static func form(major: UInt16?, minor: UInt16?) -> UInt8 {
        switch (major, minor) {
        case (.some, .some): 1
        case (.some, nil): 2
        case (nil, .some): 4
        case (nil, nil): 8
        }
    }

    /// Lets time pass without an advertisement (the daemon's clock, the end of a replayed
    /// stretch): exits whose deadline is before `time`.
    public mutating func advance(to time: Timestamp) -> BeaconUpdate {
        var update = BeaconUpdate()
        advance(max(time.nanosecondsSince1970, now ?? Int64.min), &update)
        if update.transitions.count > 1 { sort(&update.transitions) }
        return update
    }

    /// The state of the region at `index`.
    public func state(ofRegionAt index: Int) -> RegionState {
        let time = Timestamp(nanosecondsSince1970: since[index])
        switch membership[index] {
        case .unknown: return .unknown
        case .inside: return .inside(since: time)
        case .outside: return .outside(since: time)
        }
    }

    /// The last matching advertisement of the region at `index`, if any since it was loaded.
    public func lastSeen(ofRegionAt index: Int) -> Timestamp? {
        membership[index] == .unknown || (membership[index] == .outside && lastSeen[index] == 0)
            ? nil : Timestamp(nanosecondsSince1970: lastSeen[index])
    }

    /// Regions currently inside, as positions, ascending.
    public var insideRegions: [Int32] { membership.indices.filter { membership[$0] == .inside }.map(Int32.init) }

    private mutating func advance(_ time: Int64, _ update: inout BeaconUpdate) {
        if now == nil {
            // Monitoring begins: a region not sighted within its timeout from now is outside.
            for r in membership.indices where membership[r] == .unknown { schedule(Int32(r), at: time + timeout[r]) }
        }
        now = max(now ?? time, time)
        while let earliest = deadlines.earliest, earliest < time {
            let (deadline, region) = deadlines.pop()
            let r = Int(region)
            queued[r] = false
            switch membership[r] {
            case .unknown:
                membership[r] = .outside
                since[r] = deadline
                update.establishedOutside.append(region)
            case .inside:
                let due = lastSeen[r] + timeout[r]
                guard due < time else {
                    schedule(region, at: due)
                    continue
                }
                membership[r] = .outside
                since[r] = due
                update.transitions.append(BeaconTransition(
                    kind: .exit, regionIndex: region, identifier: regions[r].identifier,
                    time: Timestamp(nanosecondsSince1970: due), lastSeen: Timestamp(nanosecondsSince1970: lastSeen[r]),
                    notifies: notifyOnExit[r]))
            case .outside:
                break
            }
        }
    }

    mutating func schedule(_ region: Int32, at deadline: Int64) {
        guard !queued[Int(region)] else { return }
        queued[Int(region)] = true
        deadlines.push(deadline, region)
    }

    /// Time order; at one time exits before entries, each by identifier.
    private func sort(_ transitions: inout [BeaconTransition]) {
        transitions.sort { a, b in
            if a.time != b.time { return a.time < b.time }
            if a.kind != b.kind { return a.kind == .exit }
            return a.identifier.utf8.lexicographicallyPrecedes(b.identifier.utf8)
        }
    }
}
