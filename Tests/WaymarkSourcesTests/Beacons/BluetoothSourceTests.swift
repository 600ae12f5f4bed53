import Foundation
import Logging
import Testing
import WaymarkBeacons
import WaymarkCore
import WaymarkSources
import WaymarkTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The Bluetooth source as far as a machine without an adapter allows: finding adapters in
/// sysfs, the kernel's answer to an HCI socket, and the read loop over a socket pair fed with
/// captured packets (the same loop reads a real controller).
@Suite struct BluetoothSourceTests {
    static let captured: [UInt8] = [
        0x04, 0x3E, 0x2A, 0x02, 0x01, 0x03, 0x00, 0xEC, 0xF8, 0x00, 0xEE, 0xF3, 0x0C, 0x1E, 0x02, 0x01, 0x04, 0x1A, 0xFF,
        0x4C, 0x00, 0x02, 0x15, 0x8D, 0xEE, 0xFB, 0xB9, 0xF7, 0x38, 0x42, 0x97, 0x80, 0x40, 0x96, 0x66, 0x8B, 0xB4, 0x42,
        0x81, 0x13, 0x88, 0x0F, 0x4E, 0xC1, 0xBB,
    ]

    @Test func adaptersAreFoundInSysfsAndTheirAbsenceIsSaidPlainly() throws {
        let directory = try TemporaryDirectory()
        let sysfs = directory.path("bluetooth")
        #expect {
            _ = try BluetoothAdapter.find(nil, sysfs: sysfs)
        } throws: {
            "\($0)" == "no Bluetooth adapter: \(sysfs) does not exist (this kernel has no Bluetooth support loaded)"
        }
        try FileManager.default.createDirectory(atPath: sysfs, withIntermediateDirectories: true)
        #expect { _ = try BluetoothAdapter.find(nil, sysfs: sysfs) } throws: { "\($0)" == "no Bluetooth adapter: \(sysfs) is empty" }
        for name in ["hci1", "hci0"] { try FileManager.default.createDirectory(atPath: sysfs + "/" + name, withIntermediateDirectories: true) }
        #expect(try BluetoothAdapter.find(nil, sysfs: sysfs) == BluetoothAdapter(name: "hci0", index: 0))
        #expect(try BluetoothAdapter.find("hci1", sysfs: sysfs).index == 1)
        #expect { _ = try BluetoothAdapter.find("hci7", sysfs: sysfs) } throws: {
            "\($0)" == "no Bluetooth adapter hci7: \(sysfs) has hci0, hci1"
        }
    }

    @Test func theSourceReportsWhyItCannotScanHere() throws {
        let source = BluetoothBeaconSource(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        guard !FileManager.default.fileExists(atPath: "/sys/class/bluetooth") else {
            // A machine with Bluetooth support: the socket itself must open or say why.
            #expect(throws: Never.self) { _ = try? BluetoothAdapter.find(nil) }
            return
        }
        #expect { _ = try source.start() } throws: { error in
            (error as? BluetoothError)?.code == .noAdapter && "\(error)".hasPrefix("no Bluetooth adapter: /sys/class/bluetooth")
        }
        // Past the sysfs check, the kernel's own answer is reported with the call and errno.
        #expect { _ = try HCISocket(adapter: BluetoothAdapter(name: "hci0", index: 0)) } throws: { error in
            let text = "\(error)"
            return (error as? BluetoothError)?.code == .socketUnavailable && text.hasPrefix("socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI) failed: ")
                && text.contains("(errno ")
        }
    }

    @Test func theReadLoopDecodesCapturedPacketsFromADescriptor() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &pair) == 0)
        defer { close(pair[0]) }
        let packets = [Self.captured, [0x04, 0x0E, 0x04, 0x01, 0x0C, 0x20, 0x00], Array(Self.captured.prefix(20)), Self.captured]
        for packet in packets { #expect(packet.withUnsafeBytes { write(pair[1], $0.baseAddress, $0.count) } == packet.count) }
        close(pair[1])
        var reader = HCIEventReader()
        reader.pollInterval = 10
        var found: [BeaconAdvertisement] = []
        var tick = 0.0
        try reader.run(
            descriptor: pair[0], clock: { tick += 1; return Timestamp(secondsSince1970: tick) }, shouldStop: { false },
            deliver: { found.append($0) })
        #expect(found.map(\.major) == [5000, 5000])
        #expect(found.map(\.time) == [Timestamp(secondsSince1970: 1), Timestamp(secondsSince1970: 4)])
        #expect(reader.decoder.counts.rejected == ["notAdvertisingReport": 1, "truncated": 1])
    }
}
