import WaymarkCore

/// Which queued events may wake a handler — launch it, or resume it — and which are withheld
/// (docs/semantics.md §1.5, "Wakes by kind"). The shell asks these when it reads a queue, so the
/// launch reason is the oldest event that may wake the handler as it stands, and the lifecycle
/// asks them again before it acts.
extension HandlerLifecycle {
    /// The kinds of standard updates: the locations, and their pauses and resumptions. They reach
    /// a when-in-use handler only while it is active.
    public static func isStandardUpdate(_ kind: EventKind) -> Bool {
        kind == .location || kind == .paused || kind == .resumed
    }

    /// Whether an event of `kind` brings back a handler the user force-quit (its relaunch policy
    /// on): location events do — region and beacon monitoring, significant changes and visits (and
    /// the timeline's stays and trips), as on iOS since 7.1, and standard updates (with "always"),
    /// which Waymark treats alike. Wakes that are not locations do not: a silent push, a background fetch and an accessory change
    /// leave a force-quit app down on a phone, until the user opens it.
    public static func relaunchesAfterForceQuit(_ kind: EventKind) -> Bool {
        switch kind {
        case .region, .beacon, .significantChange, .visit, .stay, .trip, .location, .paused, .resumed: true
        case .push, .fetch, .accessory, .ranging, .state, .place, .gap, .reportedRegion, .reportedWaypoint, .reportedOffline, .reportedCard,
            .reportedVisit, .reportedActivity:
            false
        }
    }

    /// A standard update for a when-in-use handler that is not active: not sent, dropped when its
    /// turn comes ("when in use means in use").
    public func withholds(_ name: String, _ kind: EventKind) -> Bool {
        guard Self.isStandardUpdate(kind), let handler = handlers[name] else { return false }
        return !handler.registration.subscription.authorization.relaunchesForStandardUpdates && handler.state != .active
    }

    /// Whether an event of `kind` may launch or resume the handler now: never a ranging report
    /// or a withheld standard update; while a force-quit mark stands (until `handlers launch`),
    /// only a kind that relaunches a force-quit handler. Kinds unknown here wake it.
    public func mayWake(_ name: String, for kind: String) -> Bool {
        guard let handler = handlers[name] else { return false }
        guard let kind = EventKind(rawValue: kind) else { return true }
        if kind == .ranging || withholds(name, kind) { return false }
        return !handler.forceQuit || Self.relaunchesAfterForceQuit(kind)
    }
}
