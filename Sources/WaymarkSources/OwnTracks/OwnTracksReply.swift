import WaymarkCore
import WaymarkRegions

/// Bodies Waymark answers OwnTracks HTTP requests with. The apps read the response as a JSON
/// array of messages to act on; `[]` means nothing to do.
public enum OwnTracksReply {
    /// The answer when there is nothing for the device.
    public static let empty = "[]"

    /// `[{"_type":"cmd","action":"setWaypoints","waypoints":{"_type":"waypoints","waypoints":[…]}}]`:
    /// the device merges `waypoints` into its regions (replacing, on iOS, the ones with the same
    /// `rid`). The apps obey it only when the user allows remote configuration.
    public static func setWaypoints(_ waypoints: [OwnTracksWaypoint]) -> String {
        var list = JSONObjectWriter()
        list.add("_type", "waypoints")
        list.addRaw("waypoints", "[" + waypoints.map(\.json).joined(separator: ",") + "]")
        var command = JSONObjectWriter()
        command.add("_type", "cmd")
        command.add("action", "setWaypoints")
        command.addRaw("waypoints", list.object)
        return "[" + command.object + "]"
    }

    /// The same for Waymark regions (see `OwnTracksWaypoint.init(region:created:)`); `created`
    /// gives each region's creation time, which must not change between replies.
    public static func setWaypoints(regions: [Region], created: (Region) -> Timestamp) -> String {
        setWaypoints(regions.map { OwnTracksWaypoint(region: $0, created: created($0)) })
    }
}
