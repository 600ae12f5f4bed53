import WaymarkCore
import WaymarkRegions

/// One enter or exit of a region, as one side saw it: the phone's own report (`reportedRegion`)
/// or the server's evaluation of the phone's fixes (`region`).
public struct SideTransition: Sendable, Equatable {
    /// The stored event's id, when it has one.
    public var id: Int64?
    public var time: Timestamp
    /// The region's identifier: the server's, or the phone's `rid`, else its `desc`.
    public var region: String
    /// `enter` or `exit`.
    public var transition: RegionTransition.Kind

    public init(id: Int64? = nil, time: Timestamp, region: String, transition: RegionTransition.Kind) {
        self.id = id
        self.time = time
        self.region = region
        self.transition = transition
    }
}

/// A transition one side has and the other has not within the tolerance, with the reason.
public struct TransitionDisagreement: Sendable, Equatable {
    public enum Reason: String, Sendable, Equatable, CaseIterable {
        /// The server made the same transition, but later than the tolerance after the phone.
        case serverLater
        /// The server made the same transition, but earlier than the tolerance before the phone.
        case serverEarlier
        /// The phone reported a region the server does not monitor.
        case unknownRegion
        /// The server made a transition the phone did not report.
        case notReported
        /// The phone reported a transition while the server held its state.
        case serverHeld
    }

    /// The transition that has no partner within the tolerance.
    public var transition: SideTransition
    /// Which side has it: `phone` (a `reportedRegion`) or `server` (a `region` event).
    public var side: Side
    public var reason: Reason
    /// The other side's same transition, outside the tolerance (`serverLater`, `serverEarlier`).
    public var counterpart: SideTransition?

    public enum Side: String, Sendable, Equatable { case phone, server }

    public init(transition: SideTransition, side: Side, reason: Reason, counterpart: SideTransition? = nil) {
        self.transition = transition
        self.side = side
        self.reason = reason
        self.counterpart = counterpart
    }
}

/// A phone's own transitions beside the server's for the same fixes (issue 38, item 5;
/// docs/devices.md, "Phone and server side by side").
public struct TransitionComparison: Sendable, Equatable {
    /// Pairs of the same region and transition at most the tolerance apart: phone, then server.
    public var agreed: [(phone: SideTransition, server: SideTransition)]
    /// Everything else, in time order.
    public var disagreements: [TransitionDisagreement]

    public static func == (a: Self, b: Self) -> Bool {
        a.disagreements == b.disagreements && a.agreed.elementsEqual(b.agreed) { $0.phone == $1.phone && $0.server == $1.server }
    }
}

/// Pairs a phone's reported transitions with the server's (pure: no store, no clock).
public enum ReportedTransitionMatcher {
    /// How far apart the two sides' same transition may be and still agree: 5 minutes. The
    /// phone decides on its platform's geofencing (iOS and Android wake an app minutes late and
    /// wait for their own dwell), the server on the fixes the phone sends, which arrive as the
    /// phone's reporting interval allows; a few minutes apart is the same event.
    public static let defaultTolerance = 300.0

    /// Compares `phone` with `server`, both any order; `tolerance` in seconds.
    ///
    /// Per region and transition, each phone report takes the nearest server transition within
    /// `tolerance` (the nearest pairs first). A phone report left over is `serverLater` or
    /// `serverEarlier` when the server made the same transition between the phone's previous and
    /// next report for that region (the same crossing, decided at another time); else
    /// `unknownRegion` when `monitored` lacks the region, else `serverHeld`. A server transition
    /// left over is `notReported`. Only regions the phone reported are compared: a phone monitors
    /// only its own waypoints, so the server's other regions say nothing about it.
    public static func compare(
        phone: [SideTransition], server: [SideTransition], monitored: Set<String>,
        tolerance: Double = defaultTolerance
    ) -> TransitionComparison {
        let limit = Int64(tolerance * 1e9)
        let phone = phone.sorted { $0.time < $1.time }
        let reportedRegions = Set(phone.map(\.region))
        let server = server.filter { reportedRegions.contains($0.region) }.sorted { $0.time < $1.time }
        func gap(_ a: SideTransition, _ b: SideTransition) -> Int64 {
            abs(a.time.nanosecondsSince1970 - b.time.nanosecondsSince1970)
        }
        // The nearest pairs first, so a burst of reports cannot steal a later report's partner.
        var candidates: [(gap: Int64, p: Int, s: Int)] = []
        for (p, report) in phone.enumerated() {
            for (s, event) in server.enumerated()
            where event.region == report.region && event.transition == report.transition && gap(report, event) <= limit {
                candidates.append((gap(report, event), p, s))
            }
        }
        candidates.sort { ($0.gap, $0.p, $0.s) < ($1.gap, $1.p, $1.s) }
        var phonePartner = [Int?](repeating: nil, count: phone.count)
        var serverTaken = [Bool](repeating: false, count: server.count)
        for candidate in candidates where phonePartner[candidate.p] == nil && !serverTaken[candidate.s] {
            phonePartner[candidate.p] = candidate.s
            serverTaken[candidate.s] = true
        }
        var agreed: [(phone: SideTransition, server: SideTransition)] = []
        var disagreements: [TransitionDisagreement] = []
        for (p, report) in phone.enumerated() {
            if let s = phonePartner[p] {
                agreed.append((report, server[s]))
                continue
            }
            let sameRegion = phone.indices.filter { phone[$0].region == report.region }
            let position = sameRegion.firstIndex(of: p)!
            let after = position > 0 ? phone[sameRegion[position - 1]].time : nil
            let before = position + 1 < sameRegion.count ? phone[sameRegion[position + 1]].time : nil
            let late = server.indices.filter { s in
                !serverTaken[s] && server[s].region == report.region && server[s].transition == report.transition
                    && after.map { server[s].time > $0 } ?? true && before.map { server[s].time < $0 } ?? true
            }.min { gap(server[$0], report) < gap(server[$1], report) }
            if let s = late {
                serverTaken[s] = true
                let reason: TransitionDisagreement.Reason = server[s].time > report.time ? .serverLater : .serverEarlier
                disagreements.append(.init(transition: report, side: .phone, reason: reason, counterpart: server[s]))
            } else {
                let reason: TransitionDisagreement.Reason = monitored.contains(report.region) ? .serverHeld : .unknownRegion
                disagreements.append(.init(transition: report, side: .phone, reason: reason))
            }
        }
        for (s, event) in server.enumerated() where !serverTaken[s] {
            disagreements.append(.init(transition: event, side: .server, reason: .notReported))
        }
        disagreements.sort { $0.transition.time < $1.transition.time }
        return TransitionComparison(agreed: agreed, disagreements: disagreements)
    }
}
