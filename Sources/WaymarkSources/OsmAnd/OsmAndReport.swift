import WaymarkCore

/// One position report in the OsmAnd protocol, as Traccar extended it (OsmAnd's online
/// tracking, Traccar Client, GPSLogger's custom URL and other clients that target Traccar).
public struct OsmAndReport: Sendable, Equatable {
    /// `id` or `deviceid`: the client's device identifier, as sent (often an IMEI or a name).
    public var deviceID: String
    /// The fix: `time` from `timestamp` (always present), the position from `lat`/`lon` or
    /// `location`, `speed` in m/s, `course` from `bearing` or `heading`, `altitude`,
    /// `horizontalAccuracy` from `accuracy` or `acc`, and `hdop` from `hdop`.
    public var fix: Fix
    /// `valid`: `false` when the client says the position is not valid (a stale or network
    /// position). The report is still decoded; the caller decides what to do with it.
    public var isValid: Bool
    /// `batt`: battery level, percent (0…100).
    public var batteryLevel: Double?
    /// `charge`: whether the device is charging.
    public var isCharging: Bool?
    /// `driverUniqueId`: Traccar's driver identifier (an RFID tag, say).
    public var driverUniqueID: String?

    public init(
        deviceID: String, fix: Fix, isValid: Bool = true, batteryLevel: Double? = nil, isCharging: Bool? = nil,
        driverUniqueID: String? = nil
    ) {
        self.deviceID = deviceID
        self.fix = fix
        self.isValid = isValid
        self.batteryLevel = batteryLevel
        self.isCharging = isCharging
        self.driverUniqueID = driverUniqueID
    }
}
