import WaymarkCore
import Foundation
import WaymarkRegions
import WaymarkServices

extension HandlerRegistration {
    /// Checks a registration as the CLI and the API accept it; throws
    /// `HandlerError.invalidRegistration` naming the first problem. `region` looks a stored
    /// region up by identifier.
    public func validate(region: (String) throws -> Region?) throws {
        func invalid(_ message: String) -> HandlerError { .invalidRegistration(message) }
        guard Self.isValidName(name) else { throw invalid("the name '\(name)' is not 1–64 letters, digits, '.', '_' or '-'") }
        guard executable.hasPrefix("/") else { throw invalid("the executable must be an absolute path, not '\(executable)'") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: executable, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw invalid("--exec \(executable): no such file")
        }
        guard HandlerProcess.isExecutableFile(executable) else { throw invalid("--exec \(executable): not executable") }
        let subscription = self.subscription
        if !subscription.regions.isEmpty && subscription.allRegions {
            throw invalid("--regions and --all-regions conflict: give one")
        }
        guard let precision = Authorization.Precision(rawValue: subscription.precision),
            Authorization.Level(rawValue: subscription.authorizationLevel) != nil
        else { throw invalid("authorization must be always or whenInUse, precise or approximate") }
        if precision == .approximate && (subscription.monitorsRegions || subscription.monitorsBeacons) {
            throw invalid("--approximate disables region and beacon monitoring: it conflicts with --regions, --all-regions, --beacons, --all-beacons and --ranging")
        }
        if !subscription.beacons.isEmpty && subscription.allBeacons {
            throw invalid("--beacons and --all-beacons conflict: give one")
        }
        let services = subscription.services
        let standardOnly = services.desiredAccuracy != nil || services.distanceFilter != nil || services.pauses
            || services.deferredDistance != nil || services.deferredInterval != nil
        if standardOnly && !services.standard {
            throw invalid("--desired-accuracy, --distance-filter, --pauses, --defer-distance and --defer-interval need --standard")
        }
        for (flag, value) in [("--defer-distance", services.deferredDistance), ("--defer-interval", services.deferredInterval)] {
            if let value, !(value > 0 && value.isFinite) { throw invalid("\(flag) must be a positive number") }
        }
        if let accuracy = services.desiredAccuracy, DesiredAccuracy(argument: accuracy) == nil {
            throw invalid("--desired-accuracy must be best-for-navigation, best, 10, 100, 1000 or 3000, got '\(accuracy)'")
        }
        if let filter = services.distanceFilter, !(filter > 0) { throw invalid("--distance-filter must be a positive number of metres") }
        if ActivityType(rawValue: services.activity) == nil { throw invalid("--activity must be fitness, automotive, other or airborne") }
        if !(limits.budget > 0) || !(limits.maximumBackgroundTime >= limits.budget) {
            throw invalid("--budget must be > 0 and --max-background-time at least the budget")
        }
        if let memory = limits.memoryBytes, memory < 1 << 20 { throw invalid("--memory-limit must be at least 1 MiB") }
        if let interval = fetchInterval, !(interval >= 1 && interval <= 604_800) {
            throw invalid("--fetch-interval must be between 1 s and a week (604800 s)")
        }
        if services.isEmpty && !subscription.monitorsRegions && !subscription.monitorsBeacons && fetchInterval == nil
            && !subscription.accessory
        {
            throw invalid("subscribe to something: --significant, --standard, --visits, --timeline, --regions ID…, --all-regions, --beacons ID…, --all-beacons, --ranging ID…, --accessory or --fetch-interval S")
        }
        for device in subscription.devices where !ShortName.isValid(device) {
            throw invalid("--device: the device name '\(device)' is not 1–64 letters, digits, '.', '_' or '-'")
        }
        for identifier in subscription.regions {
            guard let stored = try region(identifier) else {
                throw invalid("unknown region '\(identifier)': import it first (`waymark regions import`)")
            }
            if stored.beacon != nil { throw invalid("'\(identifier)' is a beacon region: subscribe to it with --beacons") }
        }
        for identifier in subscription.beacons + subscription.ranging {
            guard let stored = try region(identifier) else {
                throw invalid("unknown beacon region '\(identifier)': add it first (`waymark regions add-beacon`)")
            }
            if stored.beacon == nil { throw invalid("'\(identifier)' is not a beacon region: subscribe to it with --regions") }
        }
    }
}
