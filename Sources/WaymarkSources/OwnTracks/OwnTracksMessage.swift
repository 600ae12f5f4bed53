import WaymarkCore

/// One message an OwnTracks app POSTs in HTTP mode, by its `_type` (the booklet's "JSON" page).
///
/// Apps send other kinds too (`cmd`, `status`, `steps`, `encrypted`, `configuration`, `dump`,
/// `request`, and whatever later versions add): those decode to `.unsupported`, not an error,
/// so a listener can answer them with `[]` like any other message.
public enum OwnTracksMessage: Sendable, Equatable {
    /// `_type: location`: where the device is, with its battery, trigger and regions.
    case location(OwnTracksLocation)
    /// `_type: transition`: the device entered or left one of its regions.
    case transition(OwnTracksTransition)
    /// `_type: waypoint`: a region created or edited on the device.
    case waypoint(OwnTracksWaypoint)
    /// `_type: waypoints`: the device's whole list of regions (an export).
    case waypoints([OwnTracksWaypoint])
    /// `_type: lwt`: the broker's last will for the device, with the time the app first
    /// connected (not the time the will was sent).
    case lastWill(connectedAt: Timestamp)
    /// `_type: beacon`: one iBeacon seen while ranging (iOS only).
    case beacon(OwnTracksBeacon)
    /// `_type: card`: the name and picture a user shows to friends.
    case card(OwnTracksCard)
    /// A well-formed message of a kind this decoder does not read; `type` is its `_type`.
    case unsupported(type: String)
}
