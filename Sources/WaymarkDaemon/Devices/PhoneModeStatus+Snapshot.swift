import WaymarkAPI
import WaymarkSteering

extension PhoneModeStatus {
    /// The API's view of a phone's `ModeSteering`.
    init(_ snapshot: ModeSteering.Snapshot) {
        self.init(
            policy: snapshot.policy.rawValue, desired: snapshot.desired?.rawValue, reported: snapshot.reportedName,
            lastCommandAt: snapshot.lastCommandAt, confirmedAt: snapshot.confirmedAt, attempts: snapshot.attempts,
            ignoresCommands: snapshot.ignoresCommands)
    }
}
