#if canImport(Glibc)
import Glibc
#endif
import WaymarkBeacons
import WaymarkCore

/// The scanner's read loop over a packet descriptor: each read is one HCI packet, stamped with
/// the clock and decoded by `AdvertisementDecoder`. It polls so it notices `shouldStop` within
/// `pollInterval`. Tests run it on a socket pair fed with captured packets: the same code
/// reads a real controller.
public struct HCIEventReader {
    public var decoder = AdvertisementDecoder()
    /// Milliseconds between checks of `shouldStop` while nothing arrives.
    public var pollInterval: Int32 = 200

    public init() {}

    /// Reads until end of file or `shouldStop()`; advertisements go to `deliver`.
    public mutating func run(
        descriptor: Int32, clock: () -> Timestamp, shouldStop: () -> Bool, deliver: (BeaconAdvertisement) -> Void
    ) throws(BluetoothError) {
        var buffer = [UInt8](repeating: 0, count: 260)  // H4 indicator + 2-byte header + 255
        while !shouldStop() {
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, pollInterval)
            if ready < 0 {
                if errno == EINTR { continue }
                throw HCISocket.failure("poll", code: .readFailed)
            }
            if ready == 0 { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw HCISocket.failure("read", code: .readFailed)
            }
            if count == 0 { return }
            let time = clock()
            buffer.withUnsafeBufferPointer { bytes in
                decoder.decode(hciPacket: UnsafeBufferPointer(rebasing: bytes[0..<count]), time: time, deliver)
            }
        }
    }
}
