import WaymarkCore

/// An MQTT output for Home Assistant's MQTT discovery (docs/outputs.md): Waymark's devices and
/// regions appear in Home Assistant with nothing configured there but the MQTT integration.
///
/// - a **device tracker** per device: discovery config (retained) on
///   `homeassistant/device_tracker/waymark_ID/config`; its position, as JSON attributes
///   (`latitude`, `longitude`, `gps_accuracy`, …), retained on `BASE/device/ID/location`; its
///   state, the device's place (docs/semantics.md §3.7), retained on `BASE/device/ID/state`;
/// - a **presence sensor** per region (a `binary_sensor`, device class `presence`): config on
///   `homeassistant/binary_sensor/waymark_region_ID/config`; `ON` while any device is inside,
///   retained on `BASE/region/ID/state`, and which devices on `BASE/region/ID/attributes`.
///
/// ID is the name made safe for a topic level and an entity id (`objectID`). Everything is
/// retained, so Home Assistant restarted later reads the latest state from the broker.
public enum HomeAssistantFormat {
    /// Home Assistant's default discovery prefix.
    public static let discoveryPrefix = "homeassistant"

    public struct Message: Sendable, Equatable {
        public var topic: String
        public var payload: String

        public init(topic: String, payload: String) {
            self.topic = topic
            self.payload = payload
        }
    }

    /// The discovery config of a device's tracker.
    public static func trackerDiscovery(device: String, base: String) -> Message {
        let id = objectID(device)
        var config = JSONObjectWriter()
        config.add("name", Optional<String>.none)  // the entity is the device itself
        config.add("unique_id", "waymark_" + id)
        config.add("json_attributes_topic", locationTopic(device: device, base: base))
        config.add("state_topic", stateTopic(device: device, base: base))
        config.add("payload_home", "home")
        config.add("payload_not_home", notHome)
        config.add("source_type", "gps")
        config.addRaw("device", deviceBlock(identifier: "waymark_" + id, name: device, model: "Tracked device"))
        config.addRaw("origin", #"{"name":"Waymark"}"#)
        return Message(topic: discoveryPrefix + "/device_tracker/waymark_" + id + "/config", payload: config.object)
    }

    /// The discovery config of a region's presence sensor; `name` is the region's display name.
    public static func presenceDiscovery(region: String, name: String?, base: String) -> Message {
        let id = objectID(region)
        var config = JSONObjectWriter()
        config.add("name", name ?? region)
        config.add("unique_id", "waymark_region_" + id)
        config.add("device_class", "presence")
        config.add("state_topic", regionTopic(region, base: base) + "/state")
        config.add("json_attributes_topic", regionTopic(region, base: base) + "/attributes")
        config.add("payload_on", "ON")
        config.add("payload_off", "OFF")
        config.addRaw("device", deviceBlock(identifier: "waymark_regions", name: "Waymark regions", model: "Regions"))
        config.addRaw("origin", #"{"name":"Waymark"}"#)
        return Message(topic: discoveryPrefix + "/binary_sensor/waymark_region_" + id + "/config", payload: config.object)
    }

    /// A fix as the tracker's attributes: Home Assistant moves the tracker to `latitude`,
    /// `longitude` with `gps_accuracy` (metres, OwnTracks' rule: `OwnTracksFormat.accuracy`).
    public static func location(_ fix: OutputFix, base: String) -> Message {
        var attributes = JSONObjectWriter()
        attributes.add("latitude", fix.coordinate.latitude)
        attributes.add("longitude", fix.coordinate.longitude)
        if let accuracy = OwnTracksFormat.accuracy(of: fix) { attributes.add("gps_accuracy", accuracy) }
        if let altitude = fix.altitude, altitude.isFinite { attributes.add("altitude", altitude) }
        if let speed = fix.speed, speed.isFinite { attributes.add("speed", speed) }
        if let course = fix.course, course.isFinite { attributes.add("course", course) }
        attributes.add("time", fix.time.rfc3339)
        return Message(topic: locationTopic(device: fix.device, base: base), payload: attributes.object)
    }

    /// What the tracker's state is when the device has no place.
    public static let notHome = "not_home"

    /// A device's place as its tracker's state: the region's identifier (`home` is Home
    /// Assistant's home), `not_home` when it has none.
    public static func trackerState(device: String, place: String?, base: String) -> Message {
        Message(topic: stateTopic(device: device, base: base), payload: place ?? notHome)
    }

    /// A region's presence: its state and its attributes (the devices inside, sorted).
    public static func presence(region: String, devicesInside: [String], base: String) -> [Message] {
        var attributes = JSONObjectWriter()
        attributes.add("devices", devicesInside.sorted())
        attributes.add("count", devicesInside.count)
        return [
            Message(topic: regionTopic(region, base: base) + "/state", payload: devicesInside.isEmpty ? "OFF" : "ON"),
            Message(topic: regionTopic(region, base: base) + "/attributes", payload: attributes.object),
        ]
    }

    /// `name` lowercased, with every character but a–z, 0–9 and `_` made `_`; when that changed
    /// anything, `_` and 8 hexadecimal digits of a hash of the original follow, so `Home` and
    /// `home`, or `a/b` and `a_b`, stay apart.
    public static func objectID(_ name: String) -> String {
        let safe = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { scalar in
                    ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" ? scalar : "_"
                }))
        guard safe != name || safe.isEmpty else { return safe }
        let hex = String(StableHash.fnv1a(name), radix: 16)
        return safe + "_" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    static func locationTopic(device: String, base: String) -> String { base + "/device/" + objectID(device) + "/location" }

    static func stateTopic(device: String, base: String) -> String { base + "/device/" + objectID(device) + "/state" }

    static func regionTopic(_ region: String, base: String) -> String { base + "/region/" + objectID(region) }

    private static func deviceBlock(identifier: String, name: String, model: String) -> String {
        var device = JSONObjectWriter()
        device.add("identifiers", [identifier])
        device.add("name", name)
        device.add("manufacturer", "Waymark")
        device.add("model", model)
        return device.object
    }
}
