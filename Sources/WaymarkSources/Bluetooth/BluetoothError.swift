/// Why the Bluetooth source cannot scan, in words a user can act on.
public struct BluetoothError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// No adapter in /sys/class/bluetooth (or not the one asked for).
        case noAdapter = "no-adapter"
        /// The kernel refused an HCI socket (no Bluetooth support, no permission: CAP_NET_RAW).
        case socketUnavailable = "socket-unavailable"
        /// The controller refused a command (adapter down, blocked by rfkill, busy).
        case commandFailed = "command-failed"
        /// Reading the socket failed.
        case readFailed = "read-failed"
    }

    public var code: Code
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
