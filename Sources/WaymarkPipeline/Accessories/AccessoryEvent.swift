import WaymarkCore

/// A change in the hardware the device's location comes from (docs/semantics.md §1.7): a GPS
/// receiver attached to gpsd or removed from it, the Bluetooth adapter going up or down, the
/// receiver losing or regaining its fix. Handlers subscribed with `--accessory` are launched or
/// resumed for it, with launch reason `accessory`.
public struct AccessoryEvent: Sendable, Equatable {
    public enum Change: String, Sendable, CaseIterable {
        case receiverAttached, receiverRemoved
        case adapterUp, adapterDown
        case fixLost, fixRegained
    }

    public var time: Timestamp
    public var change: Change
    /// The receiver's gpsd path (`/dev/ttyACM0`, `tcp://…`) or the adapter's name (`hci0`);
    /// nil for fix changes, which are the source's.
    public var device: String?

    public init(time: Timestamp, change: Change, device: String? = nil) {
        self.time = time
        self.change = change
        self.device = device
    }

    /// `{"kind":"accessory","event":"fixLost","time":…,"device":…}`.
    public var record: String {
        var json = JSONObjectWriter()
        json.add("kind", EventKind.accessory.rawValue)
        json.add("event", change.rawValue)
        json.add("time", time.rfc3339)
        if let device { json.add("device", device) }
        return json.object
    }
}
