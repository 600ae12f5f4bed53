import WaymarkCore
import WaymarkRegions

/// Bodies Waymark answers OwnTracks HTTP requests with. The apps read the response as a JSON
/// array of messages to act on; `[]` means nothing to do.
public enum OwnTracksReply {
    /// The answer when there is nothing for the device.
    public static let empty = "[]"

    /// The answer carrying `commands`, each one JSON object, in order.
    public static func array(_ commands: [String]) -> String {
        "[" + commands.joined(separator: ",") + "]"
    }

    /// `[{"_type":"cmd","action":"setWaypoints","waypoints":{"_type":"waypoints","waypoints":[…]}}]`:
    /// the device merges `waypoints` into its regions (replacing, on iOS, the ones with the same
    /// `rid`). The apps obey it only when the user allows remote configuration.
    public static func setWaypoints(_ waypoints: [OwnTracksWaypoint]) -> String {
        array([setWaypointsCommand(waypoints)])
    }

    /// The `setWaypoints` command object alone, for a reply that carries other commands too.
    public static func setWaypointsCommand(_ waypoints: [OwnTracksWaypoint]) -> String {
        var list = JSONObjectWriter()
        list.add("_type", "waypoints")
        list.addRaw("waypoints", "[" + waypoints.map(\.json).joined(separator: ",") + "]")
        var command = JSONObjectWriter()
        command.add("_type", "cmd")
        command.add("action", "setWaypoints")
        command.addRaw("waypoints", list.object)
        return command.object
    }

    /// The same for Waymark regions (see `OwnTracksWaypoint.init(region:created:)`); `created`
    /// gives each region's creation time, which must not change between replies.
    public static func setWaypoints(regions: [Region], created: (Region) -> Timestamp) -> String {
        array([setWaypointsCommand(regions: regions, created: created)])
    }

    /// The `setWaypoints` command object for Waymark regions.
    public static func setWaypointsCommand(regions: [Region], created: (Region) -> Timestamp) -> String {
        setWaypointsCommand(regions.map { OwnTracksWaypoint(region: $0, created: created($0)) })
    }
}
