import Foundation

/// A Bluetooth controller as Linux lists it in sysfs: `/sys/class/bluetooth/hciN`.
public struct BluetoothAdapter: Sendable, Equatable {
    /// `hci0`, `hci1`, …
    public var name: String
    /// N, the device index an HCI socket binds to.
    public var index: UInt16

    public init(name: String, index: UInt16) {
        self.name = name
        self.index = index
    }

    /// The adapter named `name` (nil: the first) among those in `sysfs`, or a `noAdapter` error
    /// that says what is there instead.
    public static func find(_ name: String?, sysfs: String = "/sys/class/bluetooth") throws(BluetoothError) -> BluetoothAdapter {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: sysfs, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BluetoothError(
                code: .noAdapter,
                message: "no Bluetooth adapter: \(sysfs) does not exist (this kernel has no Bluetooth support loaded)")
        }
        let adapters = ((try? FileManager.default.contentsOfDirectory(atPath: sysfs)) ?? [])
            .compactMap { entry -> BluetoothAdapter? in
                guard entry.hasPrefix("hci"), let index = UInt16(entry.dropFirst(3)) else { return nil }
                return BluetoothAdapter(name: entry, index: index)
            }
            .sorted { $0.index < $1.index }
        guard let first = adapters.first else {
            throw BluetoothError(code: .noAdapter, message: "no Bluetooth adapter: \(sysfs) is empty")
        }
        guard let name else { return first }
        guard let adapter = adapters.first(where: { $0.name == name }) else {
            throw BluetoothError(
                code: .noAdapter,
                message: "no Bluetooth adapter \(name): \(sysfs) has \(adapters.map(\.name).joined(separator: ", "))")
        }
        return adapter
    }
}
