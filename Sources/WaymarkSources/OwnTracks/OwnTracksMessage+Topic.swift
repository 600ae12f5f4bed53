extension OwnTracksMessage {
    /// The topic the message names inside its body, when it has one (locations and transitions
    /// sent over HTTP carry it; docs/devices.md). Every one must name the device that sent it.
    public var topic: String? {
        switch self {
        case .location(let location): location.topic
        case .transition(let transition): transition.topic
        default: nil
        }
    }
}
