#if canImport(Glibc)
import Glibc
#endif
import WaymarkBeacons
import WaymarkCore

/// A raw HCI socket on one adapter (`AF_BLUETOOTH`, `SOCK_RAW`, `BTPROTO_HCI`, bound to the
/// adapter on the raw channel), filtered to the events a scanner needs: LE Meta (advertising
/// reports) and command complete/status. Opening it needs CAP_NET_RAW. Linux only.
public final class HCISocket: @unchecked Sendable {
    // <bluetooth/bluetooth.h>, <bluetooth/hci.h>: stable kernel ABI values.
    static let addressFamily: Int32 = 31  // AF_BLUETOOTH
    static let protocolHCI: Int32 = 1  // BTPROTO_HCI
    static let levelHCI: Int32 = 0  // SOL_HCI
    static let optionFilter: Int32 = 2  // HCI_FILTER

    /// The file descriptor; only the scanner's reading thread uses it after opening.
    public let descriptor: Int32

    /// Opens and binds the socket; a `socketUnavailable` error names the call and errno.
    public init(adapter: BluetoothAdapter) throws(BluetoothError) {
        #if os(Linux)
        let fd = socket(Self.addressFamily, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), Self.protocolHCI)
        guard fd >= 0 else { throw Self.failure("socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI)") }
        // struct sockaddr_hci { sa_family_t hci_family; unsigned short hci_dev, hci_channel; }
        var address: (UInt16, UInt16, UInt16) = (UInt16(Self.addressFamily), adapter.index, 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, 6) }
        }
        guard bound == 0 else {
            let error = Self.failure("bind(\(adapter.name))")
            Glibc.close(fd)
            throw error
        }
        // struct hci_filter { uint32_t type_mask; uint32_t event_mask[2]; uint16_t opcode; }:
        // event packets only; events 0x0E, 0x0F (bits in word 0) and 0x3E (bit 30 of word 1).
        var filter: (UInt32, UInt32, UInt32, UInt16, UInt16) = (
            1 << UInt32(HCIAdvertisingReport.eventPacket), 1 << 0x0E | 1 << 0x0F, 1 << (0x3E - 32), 0, 0
        )
        guard setsockopt(fd, Self.levelHCI, Self.optionFilter, &filter, 14) == 0 else {
            let error = Self.failure("setsockopt(HCI_FILTER)")
            Glibc.close(fd)
            throw error
        }
        descriptor = fd
        #else
        throw BluetoothError(code: .socketUnavailable, message: "HCI sockets exist only on Linux")
        #endif
    }

    deinit { _ = Glibc.close(descriptor) }

    /// Sends one command packet (`HCICommand`).
    public func send(_ command: [UInt8]) throws(BluetoothError) {
        let written = command.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == command.count else { throw Self.failure("write (an HCI command)", code: .commandFailed) }
    }

    static func failure(_ call: String, code: BluetoothError.Code = .socketUnavailable) -> BluetoothError {
        let number = errno
        var message = "\(call) failed: \(String(cString: strerror(number))) (errno \(number))"
        switch number {
        case EAFNOSUPPORT: message += "; this kernel has no Bluetooth support (modprobe bluetooth)"
        case EPERM, EACCES: message += "; scanning needs CAP_NET_RAW (run as root or grant the capability)"
        case ENODEV: message += "; the adapter went away"
        case ENETDOWN, ERFKILL: message += "; bring the adapter up (rfkill unblock bluetooth; hciconfig hci0 up)"
        default: break
        }
        return BluetoothError(code: code, message: message)
    }
}
