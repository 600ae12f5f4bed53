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

    /// How the store names it (`subscription:NAME`, `handler:NAME`), e.g. for its services' marks.
    public var storeKey: String {
        switch self {
        case .subscription(let name): "subscription:" + name
        case .handler(let name): "handler:" + name
        }
    }

    /// The subscriber a `storeKey` names; nil for anything else.
    public init?(storeKey: String) {
        if storeKey.hasPrefix("subscription:") {
            self = .subscription(String(storeKey.dropFirst("subscription:".count)))
        } else if storeKey.hasPrefix("handler:") {
            self = .handler(String(storeKey.dropFirst("handler:".count)))
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .subscription(let name): "subscription \(name)"
        case .handler(let name): "handler \(name)"
        }
    }
}
