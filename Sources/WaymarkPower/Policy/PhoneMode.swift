/// The two ways Waymark has a phone report (docs/devices.md, "Batteries"), as OwnTracks names
/// them: `significant` (the OS's significant-change service and region monitoring: cell and
/// Wi-Fi positions about every 500 m, the GNSS mostly off) and `move` (the GNSS on, a report
/// every few seconds or metres).
public enum PhoneMode: String, Sendable, Equatable, CaseIterable, Codable {
    case significant
    case move

    /// OwnTracks' `monitoring` value (and the `m` of a location): 1 significant, 2 move.
    public var ownTracksMonitoring: Int {
        switch self {
        case .significant: 1
        case .move: 2
        }
    }

    /// The mode of an OwnTracks `monitoring`/`m` value; nil for quiet (-1) and manual (0), which
    /// Waymark does not steer to.
    public init?(ownTracksMonitoring value: Int) {
        switch value {
        case 1: self = .significant
        case 2: self = .move
        default: return nil
        }
    }
}
