/// LE advertising reports inside HCI event packets, as a raw HCI socket delivers them and as
/// `btmon`/`hcidump` capture them (Bluetooth Core, Vol 4 Part E §7.7.65.2 and §7.7.65.13).
///
/// A packet is the H4 indicator `04` (event), the event code, the parameter length, then the
/// parameters. LE advertising reports come in the LE Meta event (`3E`):
/// - subevent `02`, LE Advertising Report: number of reports, then per report event type (1),
///   address type (1), address (6, little-endian), data length (1), data, RSSI (1, signed dBm;
///   127: not available). Reports follow one another, each complete, as Linux reads them
///   (`hci_le_adv_report_evt`).
/// - subevent `0D`, LE Extended Advertising Report: number of reports, then per report event
///   type (2), address type (1), address (6), primary PHY (1), secondary PHY (1), SID (1), TX power
///   (1), RSSI (1), periodic interval (2), direct address type (1), direct address (6), data length
///   (1), data.
public enum HCIAdvertisingReport {
    /// H4 packet indicator of an event.
    public static let eventPacket: UInt8 = 0x04
    /// Event code of the LE Meta event.
    public static let leMetaEvent: UInt8 = 0x3E
    public static let advertisingReport: UInt8 = 0x02
    public static let extendedAdvertisingReport: UInt8 = 0x0D
    /// The RSSI byte's value when the controller did not measure it.
    public static let rssiNotAvailable: Int8 = 127

    /// Calls `body` with each report's advertising data and RSSI (nil when not available), in
    /// order. Returns nil when the whole packet was read, else why it is not (or not wholly) an
    /// advertising report; reports before a malformed one have been delivered.
    @inline(__always)
    public static func forEachReport(
        in packet: UnsafeBufferPointer<UInt8>, _ body: (_ data: UnsafeBufferPointer<UInt8>, _ rssi: Int8?) -> Void
    ) -> AdvertisementRejection? {
        guard packet.count >= 3 else { return .truncated }
        guard packet[0] == eventPacket else { return .notAdvertisingReport }
        let end = 3 + Int(packet[2])
        guard end <= packet.count else { return .truncated }
        guard end == packet.count else { return .wrongLength }
        guard packet[1] == leMetaEvent, end >= 5 else { return .notAdvertisingReport }
        let subevent = packet[3]
        guard subevent == advertisingReport || subevent == extendedAdvertisingReport else { return .notAdvertisingReport }
        let extended = subevent == extendedAdvertisingReport
        let reports = Int(packet[4])
        var i = 5
        for _ in 0..<reports {
            let header = extended ? 24 : 9
            guard i + header <= end else { return .malformed }
            let length = Int(packet[i + header - 1])
            let dataStart = i + header
            let dataEnd = dataStart + length
            guard dataEnd + (extended ? 0 : 1) <= end else { return .malformed }
            let raw = Int8(bitPattern: extended ? packet[i + 13] : packet[dataEnd])
            body(UnsafeBufferPointer(rebasing: packet[dataStart..<dataEnd]), raw == rssiNotAvailable ? nil : raw)
            i = dataEnd + (extended ? 0 : 1)
        }
        return i == end ? nil : .wrongLength
    }

    /// An LE Advertising Report event (subevent 02) with one report per element: what a
    /// controller sends, for tests, captures and the benchmark. Address `11:22:33:44:55:66`.
    public static func packet(reports: [(data: [UInt8], rssi: Int8?)]) -> [UInt8] {
        var parameters: [UInt8] = [advertisingReport, UInt8(reports.count)]
        for report in reports {
            parameters += [0x03, 0x00, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, UInt8(report.data.count)] + report.data
            parameters.append(UInt8(bitPattern: report.rssi ?? rssiNotAvailable))
        }
        return [eventPacket, leMetaEvent, UInt8(parameters.count)] + parameters
    }
}
