/// Who a location-service record is for: a subscription named in the daemon's configuration
/// (or the one a `waymark replay`/`export` run builds from its flags), or a registered handler.
public enum SubscriberID: Sendable, Hashable, Comparable, CustomStringConvertible {
    case subscription(String)
    case handler(String)

    /// The subscription's or handler's name.
    public var name: String {
        switch self {
        case .subscription(let name), .handler(let name): name
        }
    }

    public var description: String {
        switch self {
        case .subscription(let name): "subscription \(name)"
        case .handler(let name): "handler \(name)"
        }
    }
}
