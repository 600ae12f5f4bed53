import Foundation
import Logging
import Synchronization
import WaymarkBeacons
import WaymarkCore

/// iBeacon advertisements from a Bluetooth LE adapter through a raw HCI socket: finds the adapter
/// in sysfs, opens the socket, sets the scan interval and window (`scan`, which the power
/// ledger reads), enables passive scanning without duplicate filtering, and reads advertising
/// reports on a thread of its own.
///
/// Where there is no adapter, or the kernel refuses the socket, `start()` throws a
/// `BluetoothError` that says so ("no Bluetooth adapter: /sys/class/bluetooth is empty").
public final class BluetoothBeaconSource: Sendable {
    public let adapterName: String?
    public let scan: ScanParameters
    let sysfs: String
    let logger: Logger

    public init(adapter: String? = nil, scan: ScanParameters = .default, sysfs: String = "/sys/class/bluetooth", logger: Logger) {
        self.adapterName = adapter
        self.scan = scan
        self.sysfs = sysfs
        self.logger = logger
    }

    /// Where it listens, for status and logs: `bluetooth:hci0`, or `bluetooth` for the first adapter.
    public var description: String { "bluetooth" + (adapterName.map { ":" + $0 } ?? "") }

    /// Starts scanning; advertisements arrive on the stream until it is cancelled (which stops
    /// the scan) or reading fails (the stream ends with the error).
    public func start() throws(BluetoothError) -> AsyncThrowingStream<BeaconAdvertisement, any Error> {
        if let problem = scan.problem { throw BluetoothError(code: .commandFailed, message: problem) }
        let adapter = try BluetoothAdapter.find(adapterName, sysfs: sysfs)
        let socket = try HCISocket(adapter: adapter)
        try socket.send(HCICommand.setScanEnable(false))
        try socket.send(HCICommand.setScanParameters(scan))
        try socket.send(HCICommand.setScanEnable(true))
        logger.notice(
            "Scanning for iBeacons",
            metadata: [
                "adapter": "\(adapter.name)", "scan.interval": "\(scan.interval)", "scan.window": "\(scan.window)",
                "scan.dutyCycle": "\(scan.dutyCycle)",
            ])
        let stop = Mutex(false)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: BeaconAdvertisement.self, bufferingPolicy: .bufferingNewest(4096))
        let thread = Thread { [logger] in
            var reader = HCIEventReader()
            do {
                try reader.run(
                    descriptor: socket.descriptor, clock: { Timestamp(secondsSince1970: Date().timeIntervalSince1970) },
                    shouldStop: { stop.withLock { $0 } }, deliver: { continuation.yield($0) })
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
            try? socket.send(HCICommand.setScanEnable(false))
            logger.notice("Bluetooth scan stopped", metadata: ["ignored": "\(reader.decoder.counts.rejected)"])
        }
        thread.name = "waymark-hci"
        continuation.onTermination = { _ in stop.withLock { $0 = true } }
        thread.start()
        return stream
    }
}
