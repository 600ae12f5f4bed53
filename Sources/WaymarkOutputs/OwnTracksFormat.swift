import WaymarkCore

/// An MQTT output in OwnTracks' own format (docs/outputs.md), as the apps publish it, so Home
/// Assistant's OwnTracks integration — which listens on `owntracks/+/+` and `owntracks/+/+/event`
/// — takes Waymark's devices without configuration:
///
/// - a region or beacon transition → `_type: transition` on `BASE/USER/DEVICE/event`, `event`
///   `enter` or `leave`, `desc` and `rid` the region, `t` `c` (geographic) or `b` (beacon),
///   `tst` and `wtst` in whole seconds, and `lat`, `lon` where the event has a position (`acc` 0:
///   the position is Waymark's evaluation, not a reading);
/// - a standard-updates location → `_type: location` on `BASE/USER/DEVICE` (`t` `u`);
/// - any other kind has no OwnTracks message: nothing is published (and the event counts as
///   delivered).
///
/// `tid`, the apps' two-character tracker id, is the device name's last two characters.
public enum OwnTracksFormat {
    /// The topic and message for `event` of the device owned by `user`, under `base`; nil when
    /// OwnTracks has no message for its kind.
    public static func message(for event: OutputEvent, user: String, base: String) -> (topic: String, payload: String)? {
        let deviceTopic = base + "/" + user + "/" + event.device
        let seconds = Int(event.time.secondsSince1970.rounded(.down))
        var message = JSONObjectWriter()
        switch event.kind {
        case .region, .beacon:
            guard let transition = event.transition, transition == "enter" || transition == "exit" else { return nil }
            message.add("_type", "transition")
            message.add("tid", String(event.device.suffix(2)))
            message.add("event", transition == "enter" ? "enter" : "leave")
            message.add("desc", event.region ?? "")
            message.add("rid", event.region ?? "")
            message.add("t", event.kind == .beacon ? "b" : "c")
            message.add("tst", seconds)
            message.add("wtst", seconds)
            add(event.coordinate, to: &message)
            return (deviceTopic + "/event", message.object)
        case .location:
            guard let coordinate = event.coordinate else { return nil }
            message.add("_type", "location")
            message.add("tid", String(event.device.suffix(2)))
            message.add("t", "u")
            message.add("tst", seconds)
            add(coordinate, to: &message)
            return (deviceTopic, message.object)
        default:
            return nil
        }
    }

    private static func add(_ coordinate: Coordinate?, to message: inout JSONObjectWriter) {
        guard let coordinate else { return }
        message.add("lat", coordinate.latitude)
        message.add("lon", coordinate.longitude)
        message.add("acc", 0)
    }
}
