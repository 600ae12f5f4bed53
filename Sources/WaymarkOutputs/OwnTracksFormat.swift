import WaymarkCore

/// An MQTT output in OwnTracks' own format (docs/outputs.md), as the apps publish it, so Home
/// Assistant's OwnTracks integration — which listens on `owntracks/#` — takes Waymark's devices
/// without configuration:
///
/// - a recorded fix (thinned by `LocationThinning`) → `_type: location` on `BASE/USER/DEVICE`;
/// - a region or beacon enter/exit → `_type: transition` on `BASE/USER/DEVICE/event`, `event`
///   `enter` or `leave`, `desc` and `rid` the region, `t` `c` (geographic) or `b` (beacon);
/// - any other kind has no OwnTracks message: nothing is published (the event counts as
///   delivered).
///
/// What Home Assistant requires of them: `lat` and `lon` always (it indexes them), and an `acc`
/// above zero, or it ignores the position. `acc` is the fix's horizontal accuracy, or 5 m per
/// unit of HDOP when the source gave only that, rounded up to whole metres; a fix with neither
/// has no `acc`. A transition carries the position of `fix`, the device's fix at or before the
/// event (the caller's lookup): the event's own coordinate when it has one, else the fix's, else
/// 0, 0 without `acc` (a beacon seen before any fix), which Home Assistant does not move a
/// tracker to. `tid`, the apps' two-character tracker id, is the device name's last two characters.
///
/// Every message carries `"_waymark":ORIGIN` (the daemon's CloudEvents source; the apps and Home
/// Assistant ignore keys they do not know), so a daemon that also reads OwnTracks from the same
/// broker recognises its own messages and does not take them for a device's (`isOwn`).
public enum OwnTracksFormat {
    public static let originKey = "_waymark"

    /// Whether `payload` is a message this format wrote with `origin`: the exact compact member
    /// the writer produces, looked for in the raw bytes (no JSON decoding on the ingest path).
    public static func isOwn(_ payload: [UInt8], origin: String) -> Bool {
        var member = JSONObjectWriter()
        member.add(originKey, origin)
        let marker = Array(member.object.utf8.dropFirst().dropLast())  // without the braces
        guard payload.count >= marker.count, let first = marker.first else { return false }
        var index = payload.startIndex
        while let start = payload[index...].firstIndex(of: first), payload.count - start >= marker.count {
            if payload[start..<start + marker.count].elementsEqual(marker) { return true }
            index = start + 1
        }
        return false
    }

    /// The topic and message for a region or beacon transition of the device owned by `user`,
    /// under `base`; nil for a dwell and for kinds OwnTracks has no message for.
    public static func message(
        for event: OutputEvent, fix: OutputFix?, user: String, base: String, origin: String
    ) -> (topic: String, payload: String)? {
        guard event.kind == .region || event.kind == .beacon, let transition = event.transition,
            transition == "enter" || transition == "exit"
        else { return nil }
        var message = JSONObjectWriter()
        message.add("_type", "transition")
        message.add("tid", trackerID(event.device))
        message.add("event", transition == "enter" ? "enter" : "leave")
        message.add("desc", event.region ?? "")
        message.add("rid", event.region ?? "")
        message.add("t", event.kind == .beacon ? "b" : "c")
        let seconds = wholeSeconds(event.time)
        message.add("tst", seconds)
        message.add("wtst", seconds)
        let coordinate = event.coordinate ?? fix?.coordinate ?? Coordinate(latitude: 0, longitude: 0)
        message.add("lat", coordinate.latitude)
        message.add("lon", coordinate.longitude)
        if let fix, let acc = accuracy(of: fix) { message.add("acc", acc) }
        message.add(originKey, origin)
        return (base + "/" + user + "/" + event.device + "/event", message.object)
    }

    /// The `location` message for a recorded fix.
    public static func location(_ fix: OutputFix, user: String, base: String, origin: String) -> (topic: String, payload: String) {
        var message = JSONObjectWriter()
        message.add("_type", "location")
        message.add("tid", trackerID(fix.device))
        message.add("tst", wholeSeconds(fix.time))
        message.add("lat", fix.coordinate.latitude)
        message.add("lon", fix.coordinate.longitude)
        if let acc = accuracy(of: fix) { message.add("acc", acc) }
        // OwnTracks' altitude is whole metres, its velocity whole km/h, its course whole degrees.
        // A value no Int holds (a database from before the decoders' bounds may keep 1e308)
        // is left out rather than trapping the output: see `Double.roundedInteger`.
        if let altitude = fix.altitude?.roundedInteger() { message.add("alt", altitude) }
        if let speed = fix.speed, speed >= 0, let kmh = (speed * 3.6).roundedInteger() { message.add("vel", kmh) }
        if let course = fix.course?.roundedInteger() { message.add("cog", (course % 360 + 360) % 360) }
        message.add(originKey, origin)
        return (base + "/" + user + "/" + fix.device, message.object)
    }

    /// Whole metres, at least 1 (Home Assistant ignores 0); nil when not finite or past what an
    /// `Int` holds.
    static func accuracy(of fix: OutputFix) -> Int? {
        guard let metres = fix.accuracy ?? fix.hdop.map({ $0 * 5 }), metres >= 0, let whole = metres.roundedInteger(.up)
        else { return nil }
        return max(1, whole)
    }

    static func trackerID(_ device: String) -> String { String(device.suffix(2)) }

    static func wholeSeconds(_ time: Timestamp) -> Int { Int(time.secondsSince1970.rounded(.down)) }
}
