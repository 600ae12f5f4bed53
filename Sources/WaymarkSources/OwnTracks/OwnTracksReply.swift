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

    /// The `setWaypoints` command object for Waymark regions. Android keys a waypoint on its
    /// `tst` (a second) and replaces the one with the same `tst`, so regions imported in the same
    /// second would replace each other there: within one command, a region whose second is taken
    /// is given the next free one (in order of time, then identifier, so the same regions get
    /// the same seconds whatever their order). Transitions name regions by `rid` or `desc`, never
    /// by `tst`. `extra` waypoints (a departure fence, `DepartureFence`) are sent after the
    /// regions with their own `tst`, which no region is given.
    public static func setWaypointsCommand(regions: [Region], created: (Region) -> Timestamp, extra: [OwnTracksWaypoint] = []) -> String {
        var seconds = regions.map { Self.wholeSeconds(created($0)) }
        var taken = Set(extra.map { Self.wholeSeconds($0.created) })
        for position in regions.indices.sorted(by: { (seconds[$0], regions[$0].identifier) < (seconds[$1], regions[$1].identifier) }) {
            while !taken.insert(seconds[position]).inserted { seconds[position] += 1 }
        }
        return setWaypointsCommand(zip(regions, seconds).map {
            OwnTracksWaypoint(region: $0, created: Timestamp(nanosecondsSince1970: $1 * 1_000_000_000))
        } + extra)
    }

    /// `{"_type":"cmd","action":"clearWaypoints"}`: the phone deletes every region it holds
    /// (OwnTracks iOS 16.4.3 and Android 2.5.0 or later; older apps ignore it). Sent before a
    /// region window's `setWaypoints`, so the phone holds exactly the window (docs/devices.md,
    /// "Regions on the phone").
    public static let clearWaypointsCommand = #"{"_type":"cmd","action":"clearWaypoints"}"#

    /// A timestamp's whole seconds, rounded down (as the waypoint's `tst` is written).
    private static func wholeSeconds(_ time: Timestamp) -> Int64 {
        let (seconds, remainder) = time.nanosecondsSince1970.quotientAndRemainder(dividingBy: 1_000_000_000)
        return remainder < 0 ? seconds - 1 : seconds
    }
}
