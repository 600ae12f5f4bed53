import WaymarkCore
import WaymarkServices

/// A named subscription from the `subscriptions` section of the configuration.
public struct ConfiguredSubscription: Sendable, Hashable {
    /// Letters, digits, `.`, `_` and `-`: it names the subscription in records, status and metrics.
    public var name: String
    public var services: ServiceSubscription

    public init(name: String, services: ServiceSubscription) {
        self.name = name
        self.services = services
    }

    /// Whether `name` can name a subscription.
    public static func isValidName(_ name: String) -> Bool { ShortName.isValid(name) }
}
