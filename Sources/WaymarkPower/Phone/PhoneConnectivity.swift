/// How a phone's report reached the server, as OwnTracks' `conn` names it: over Wi-Fi (`w`),
/// mobile data (`m`), or not at all yet (`o`, offline: the app queues the report and sends it with
/// the next one that gets through).
public enum PhoneConnectivity: String, Sendable, Equatable, CaseIterable {
    case wifi
    case mobile
    case offline

    /// The connectivity of an OwnTracks `conn` value; nil for anything else (the caller decides
    /// what an unknown value means — the daemon prices it as mobile data, the dearer case).
    public init?(ownTracksConn value: String) {
        switch value {
        case "w": self = .wifi
        case "m": self = .mobile
        case "o": self = .offline
        default: return nil
        }
    }

    /// The radio that carried the report; nil while offline.
    public var radio: Radio? {
        switch self {
        case .wifi: .wifi
        case .mobile: .cellular
        case .offline: nil
        }
    }
}
