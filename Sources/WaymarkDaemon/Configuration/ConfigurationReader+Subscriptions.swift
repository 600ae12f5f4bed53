import WaymarkConfiguration
import WaymarkServices
import Yams

/// The `subscriptions` section (the authorization level, when-in-use or always, belongs to
/// handlers; a configured subscription is the daemon's own and always runs):
///
/// ```yaml
/// subscriptions:
///   ride-log:
///     standard: { desired_accuracy: 10, distance_filter: 50, pauses: true }
///     significant_change: true          # or { distance: 500, interval: 300 }
///     visits: { radius: 100, minimum_duration: 300 }
///     timeline: true                    # stays and trips; or { radius: 100, minimum_duration: 300 }
///     activity: fitness
///     precision: approximate            # coordinates on a ~3 km grid; default precise
/// ```
extension ConfigurationReader {
    func subscriptions(_ section: Node) throws(ConfigurationError) -> [ConfiguredSubscription] {
        var subscriptions: [ConfiguredSubscription] = []
        for (name, body) in try mapping(section, key: "subscriptions") {
            let key = "subscriptions.\(name.string)"
            guard ConfiguredSubscription.isValidName(name.string) else {
                throw error(.scalar(name), key: key, "a subscription name is 1–64 letters, digits, '.', '_' or '-'")
            }
            let services = try subscription(body, key: key)
            if services.isEmpty {
                throw error(body, key: key, "asks for no service: give standard, significant_change, visits or timeline")
            }
            subscriptions.append(ConfiguredSubscription(name: name.string, services: services))
        }
        return subscriptions
    }

    private func subscription(_ node: Node, key: String) throws(ConfigurationError) -> ServiceSubscription {
        var subscription = ServiceSubscription()
        for (name, value) in try mapping(node, key: key) {
            let field = "\(key).\(name.string)"
            switch name.string {
            case "standard": subscription.standard = try standard(value, key: field)
            case "significant_change":
                subscription.significantChange = try enabled(value, key: field) { (map) throws(ConfigurationError) in
                    var thresholds = SignificantChangeThresholds()
                    for (name, value) in map {
                        switch name.string {
                        case "distance": thresholds.minimumDistance = try positive(value, key: "\(field).distance")
                        case "interval": thresholds.minimumInterval = try positive(value, key: "\(field).interval")
                        default: throw unknown(name, in: field, known: ["distance", "interval"])
                        }
                    }
                    return thresholds
                }
            case "visits": subscription.visits = try visitThresholds(value, key: field)
            case "timeline": subscription.timeline = try visitThresholds(value, key: field)
            case "activity": subscription.activity = try activity(value, key: field)
            case "precision":
                let text = try string(value, key: field)
                guard let precision = Authorization.Precision(rawValue: text) else {
                    throw error(value, key: field, "'\(text)' is not one of precise, approximate")
                }
                subscription.authorization.precision = precision
            default:
                throw unknown(name, in: key, known: ["standard", "significant_change", "visits", "timeline", "activity", "precision"])
            }
        }
        return subscription
    }

    /// `visits` and `timeline`: the visit rule's radius and minimum duration.
    private func visitThresholds(_ node: Node, key: String) throws(ConfigurationError) -> VisitThresholds? {
        try enabled(node, key: key) { (map) throws(ConfigurationError) in
            var thresholds = VisitThresholds()
            for (name, value) in map {
                switch name.string {
                case "radius": thresholds.radius = try positive(value, key: "\(key).radius")
                case "minimum_duration": thresholds.minimumDuration = try positive(value, key: "\(key).minimum_duration")
                default: throw unknown(name, in: key, known: ["radius", "minimum_duration"])
                }
            }
            return thresholds
        }
    }

    /// `false` → nil, `true` → the defaults, a mapping → what `read` makes of it.
    private func enabled<T>(
        _ node: Node, key: String, _ read: ([(Node.Scalar, Node)]) throws(ConfigurationError) -> T
    ) throws(ConfigurationError) -> T? {
        if case .scalar = node {
            guard let on = node.bool else { throw error(node, key: key, "must be true, false or a mapping of settings") }
            return on ? try read([]) : nil
        }
        return try read(try mapping(node, key: key))
    }

    private func standard(_ node: Node, key: String) throws(ConfigurationError) -> StandardUpdates.Configuration? {
        try enabled(node, key: key) { (map) throws(ConfigurationError) in
            var configuration = StandardUpdates.Configuration()
            for (name, value) in map {
                let field = "\(key).\(name.string)"
                switch name.string {
                case "desired_accuracy":
                    let text = try string(value, key: field)
                    guard let accuracy = DesiredAccuracy(argument: text) else {
                        throw error(value, key: field, "'\(text)' is not one of best-for-navigation, best, 10, 100, 1000, 3000")
                    }
                    configuration.desiredAccuracy = accuracy
                case "distance_filter": configuration.distanceFilter = try positive(value, key: field)
                case "pauses": configuration.pausesAutomatically = try bool(value, key: field)
                case "defer_distance": configuration.deferredDistance = try positive(value, key: field)
                case "defer_interval": configuration.deferredInterval = try positive(value, key: field)
                default:
                    throw unknown(name, in: key, known: ["desired_accuracy", "distance_filter", "pauses", "defer_distance", "defer_interval"])
                }
            }
            return configuration
        }
    }
}
