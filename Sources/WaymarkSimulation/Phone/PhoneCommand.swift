import Foundation
import WaymarkCore

/// One OwnTracks remote command (the booklet's "Remote configuration": a `_type: cmd` object)
/// as the simulated phone understands it. The apps obey these only when the user has allowed
/// remote configuration; the simulator likewise (`PhoneSimulator.Settings.remoteConfiguration`).
public enum PhoneCommand: Sendable, Equatable {
    /// `setConfiguration`: the keys the simulator models, each nil when the command leaves it.
    case setConfiguration(monitoring: Int?, locatorInterval: Double?, locatorDisplacement: Double?)
    /// `setWaypoints`: regions merged into the phone's by `rid`.
    case setWaypoints([PhoneWaypoint])
    /// `clearWaypoints`: the phone forgets every region.
    case clearWaypoints
    /// `reportLocation`: the phone answers with a location at once (`t: "r"`).
    case reportLocation
    /// Any other action (`dump`, `status`, …): received, not modelled.
    case other(String)

    /// The commands in a daemon's answer: an array of messages (HTTP) or one message (MQTT).
    /// Messages that are not `cmd` are skipped; a body that is not JSON, or a command without
    /// an `action`, is an error naming what was wrong.
    public static func parse(_ body: String) throws(PhoneCommandError) -> [PhoneCommand] {
        let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return [] }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(trimmed.utf8), options: [.fragmentsAllowed])
        } catch {
            throw PhoneCommandError("the reply is not JSON: \(trimmed.prefix(120))")
        }
        let objects: [Any] = (parsed as? [Any]) ?? [parsed]
        var commands: [PhoneCommand] = []
        for (position, element) in objects.enumerated() {
            guard let object = element as? [String: Any] else { throw PhoneCommandError("message \(position) is not a JSON object") }
            guard object["_type"] as? String == "cmd" else { continue }
            guard let action = object["action"] as? String else { throw PhoneCommandError("command \(position) has no \"action\"") }
            commands.append(try command(action, object, position: position))
        }
        return commands
    }

    private static func command(_ action: String, _ object: [String: Any], position: Int) throws(PhoneCommandError) -> PhoneCommand {
        switch action {
        case "setConfiguration":
            guard let configuration = object["configuration"] as? [String: Any] else {
                throw PhoneCommandError("setConfiguration (command \(position)) has no \"configuration\" object")
            }
            return .setConfiguration(
                monitoring: (configuration["monitoring"] as? NSNumber)?.intValue,
                locatorInterval: (configuration["locatorInterval"] as? NSNumber)?.doubleValue,
                locatorDisplacement: (configuration["locatorDisplacement"] as? NSNumber)?.doubleValue)
        case "setWaypoints":
            let list = (object["waypoints"] as? [String: Any])?["waypoints"] ?? object["waypoints"]
            guard let waypoints = list as? [Any] else {
                throw PhoneCommandError("setWaypoints (command \(position)) has no \"waypoints\" list")
            }
            return .setWaypoints(waypoints.compactMap { ($0 as? [String: Any]).flatMap(PhoneWaypoint.init(json:)) })
        case "clearWaypoints": return .clearWaypoints
        case "reportLocation": return .reportLocation
        default: return .other(action)
        }
    }
}

/// A command reply the simulated phone could not read.
public struct PhoneCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A region as the phone holds it: an OwnTracks waypoint with a circle (`lat`, `lon`, `rad`).
/// Waypoints without a circle (beacon regions) are held but never geofenced.
public struct PhoneWaypoint: Sendable, Equatable {
    /// `rid`, else `desc`: what `setWaypoints` merges by and a transition names.
    public var key: String
    public var regionID: String?
    public var name: String
    public var center: Coordinate?
    public var radius: Double?
    /// `tst`, echoed in a transition as `wtst`.
    public var created: Int

    public init(key: String, regionID: String?, name: String, center: Coordinate?, radius: Double?, created: Int) {
        self.key = key
        self.regionID = regionID
        self.name = name
        self.center = center
        self.radius = radius
        self.created = created
    }

    init?(json: [String: Any]) {
        let name = json["desc"] as? String ?? ""
        let regionID = json["rid"] as? String
        guard let key = regionID ?? (name.isEmpty ? nil : name) else { return nil }
        var center: Coordinate?
        if let latitude = (json["lat"] as? NSNumber)?.doubleValue, let longitude = (json["lon"] as? NSNumber)?.doubleValue {
            center = Coordinate(latitude: latitude, longitude: longitude)
        }
        self.init(
            key: key, regionID: regionID, name: name, center: center, radius: (json["rad"] as? NSNumber)?.doubleValue,
            created: (json["tst"] as? NSNumber)?.intValue ?? 0)
    }

    /// The circle the OS watches, when the waypoint has one.
    var circle: (center: Coordinate, radius: Double)? {
        guard let center, let radius, radius > 0 else { return nil }
        return (center, radius)
    }
}
