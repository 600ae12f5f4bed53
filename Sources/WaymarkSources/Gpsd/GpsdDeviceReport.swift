import WaymarkGeoJSON

/// gpsd's DEVICE and DEVICES reports, read with Waymark's own JSON parser (libgps' loops on
/// some shapes of them, found by fuzzing). A device is active when its `activated` member is a
/// time; gpsd writes `"activated":0` for one it closed or was told to remove.
enum GpsdDeviceReport: Equatable {
    /// One device opened or closed.
    case device(path: String, activated: Bool)
    /// Every device gpsd has, when a client connects or asks: the active ones.
    case devices([String])

    /// The report in `line` (one JSON object, already checked), or nil when it has no path.
    static func decode(_ line: UnsafeBufferPointer<UInt8>, className: String) -> GpsdDeviceReport? {
        guard let root = try? JSONParser.parse(Array(line)) else { return nil }
        if className == "DEVICES" {
            guard case .array(let devices)? = root.member("devices")?.value else { return nil }
            return .devices(devices.compactMap { device in
                guard case .string(let path)? = device.member("path")?.value, isActive(device) else { return nil }
                return path
            })
        }
        guard case .string(let path)? = root.member("path")?.value else { return nil }
        return .device(path: path, activated: isActive(root))
    }

    private static func isActive(_ device: JSONNode) -> Bool {
        switch device.member("activated")?.value {
        case .string(let time)?: !time.isEmpty
        case .number(let seconds)?: seconds > 0
        default: false
        }
    }
}
