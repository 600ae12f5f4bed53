import Testing
import WaymarkBeacons
import WaymarkCore
import WaymarkRegions

/// iBeacon frames from bytes: the manufacturer-specific payload, the AD structures around it,
/// and HCI LE advertising report events as a raw HCI socket (or hcidump) delivers them.
@Suite struct AdvertisementParsingTests {
    /// A real capture (an LE Advertising Report as read from a raw HCI socket): event 3E,
    /// 42 parameter bytes, one report, non-connectable, address 0C:F3:EE:00:F8:EC, flags then
    /// the iBeacon, RSSI BB (−69 dBm).
    static let capturedIBeacon = hex("""
        04 3E 2A 02 01 03 00 EC F8 00 EE F3 0C 1E 02 01 04 1A FF 4C 00 02 15 8D EE FB B9 F7 38 42 97 80
        40 96 66 8B B4 42 81 13 88 0F 4E C1 BB
        """)
    /// A real capture of an Eddystone-UID beacon: service data, no manufacturer data.
    static let capturedEddystone = hex("""
        04 3E 29 02 01 00 01 F5 53 E0 AA 15 E5 1D 02 01 06 03 03 AA FE 15 16 AA FE 00 DF ED D1 EB EA C0 4E 5D EF A0
        17 E5 15 AA E0 53 F5 CB
        """)

    static let frame = IBeaconFrame(uuid: trailUUID, major: 0x0102, minor: 0xFFFE, measuredPower: -59)

    @Test func aValidFrameDecodesFieldByField() throws {
        let bytes = hex("4C 00 02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 01 02 FF FE C5")
        let frame = try IBeaconFrame.parse(manufacturerData: bytes).get()
        #expect(frame.uuid.description == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        #expect(frame.major == 258)  // big-endian 01 02
        #expect(frame.minor == 65534)
        #expect(frame.measuredPower == -59)  // C5, two's complement
        #expect(frame.manufacturerData == bytes)
    }

    @Test(
        "measured power is a signed byte",
        arguments: [(UInt8(0xC5), Int8(-59)), (0x80, -128), (0xFF, -1), (0x00, 0), (0x7F, 127), (0xB3, -77)])
    func measuredPowerSign(byte: UInt8, power: Int8) throws {
        var bytes = Self.frame.manufacturerData
        bytes[24] = byte
        #expect(try IBeaconFrame.parse(manufacturerData: bytes).get().measuredPower == power)
    }

    struct Rejected: Sendable, CustomTestStringConvertible {
        var bytes: String
        var reason: AdvertisementRejection
        var testDescription: String { "\(reason): \(bytes.prefix(20))" }
    }

    @Test(
        "other vendors, other Apple types, truncated and wrong lengths are rejected with their reason",
        arguments: [
            // Microsoft (0x0006) and Nordic (0x0059) manufacturer data
            Rejected(bytes: "06 00 01 09 20 02 A5 3E", reason: .otherManufacturer),
            Rejected(bytes: "59 00 02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 01 C5", reason: .otherManufacturer),
            // AltBeacon layout under Apple's id is still not an iBeacon type
            Rejected(bytes: "4C 00 BE AC E2 C5", reason: .otherAppleType),
            // Apple Find My (0x12) and Nearby (0x10)
            Rejected(bytes: "4C 00 12 19 10 00 00", reason: .otherAppleType),
            Rejected(bytes: "4C 00 10 05 01 18 44 18 2A", reason: .otherAppleType),
            Rejected(bytes: "", reason: .truncated),
            Rejected(bytes: "4C", reason: .truncated),
            Rejected(bytes: "4C 00 02", reason: .truncated),
            Rejected(bytes: "4C 00 02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 01", reason: .truncated),
            Rejected(bytes: "4C 00 02 15 E2 C5 6D B5", reason: .truncated),
            Rejected(bytes: "4C 00 02 14 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 01", reason: .wrongLength),
            Rejected(bytes: "4C 00 02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 01 C5 00", reason: .wrongLength),
        ])
    func rejected(_ c: Rejected) {
        #expect(throws: Never.self) {
            if case .failure(let reason) = IBeaconFrame.parse(manufacturerData: hex(c.bytes)) {
                #expect(reason == c.reason)
            } else {
                Issue.record("accepted \(c.bytes)")
            }
        }
    }

    @Test func advertisingDataFindsTheIBeaconAfterOtherStructures() throws {
        let data = AdvertisingData.encode(Self.frame)
        #expect(data.count == 30)  // flags (3) + length, type and 25 bytes
        #expect(try AdvertisingData.iBeacon(in: data).get() == Self.frame)
        // A name and a second manufacturer structure before it; a zero length ends the data.
        let name = [0x05, 0x09] + Array("hut1".utf8)
        let nordic: [UInt8] = [0x04, 0xFF, 0x59, 0x00, 0x01]
        #expect(try AdvertisingData.iBeacon(in: name + nordic + data + [0x00, 0x00]).get() == Self.frame)
    }

    @Test func advertisingDataProblemsAreReasonsNotCrashes() {
        func reason(_ bytes: [UInt8]) -> AdvertisementRejection? {
            if case .failure(let reason) = AdvertisingData.iBeacon(in: bytes) { return reason }
            return nil
        }
        #expect(reason([0x02, 0x01, 0x06]) == .noManufacturerData)
        #expect(reason([]) == .noManufacturerData)
        #expect(reason([0x1A, 0xFF, 0x4C, 0x00, 0x02]) == .malformed)  // length runs past the end
        #expect(reason([0x04, 0xFF, 0x59, 0x00, 0x01]) == .otherManufacturer)
        var cut = AdvertisingData.encode(Self.frame)
        cut[3] = 0x19  // the structure says 24 bytes: the frame loses its measured power
        cut.removeLast()
        #expect(reason(cut) == .truncated)
    }

    @Test func theCapturedHCIEventDecodesThroughTheSocketReadersPath() throws {
        var decoder = AdvertisementDecoder()
        let found = decoder.decode(hciPacket: Self.capturedIBeacon, time: at(0))
        #expect(found == [BeaconAdvertisement(time: at(0), uuid: bikeUUID, major: 5000, minor: 3918, measuredPower: -63, rssi: -69)])
        #expect(decoder.counts.accepted == 1)
        #expect(decoder.counts.rejectedTotal == 0)

        #expect(decoder.decode(hciPacket: Self.capturedEddystone, time: at(1)).isEmpty)
        #expect(decoder.counts[.noManufacturerData] == 1)
    }

    @Test func severalReportsInOneEventAndAnUnmeasuredRSSI() throws {
        let packet = HCIAdvertisingReport.packet(reports: [
            (AdvertisingData.encode(Self.frame), -71),
            ([0x02, 0x01, 0x06, 0x04, 0xFF, 0x06, 0x00, 0x01], -80),
            (AdvertisingData.encode(IBeaconFrame(uuid: bikeUUID, major: 7, minor: 8, measuredPower: -65)), nil),
        ])
        var decoder = AdvertisementDecoder()
        let found = decoder.decode(hciPacket: packet, time: at(2))
        #expect(found.map(\.major) == [0x0102, 7])
        #expect(found.map(\.rssi) == [-71, 0])  // RSSI 127 (not available) becomes 0, unknown
        #expect(decoder.counts.accepted == 2)
        #expect(decoder.counts.rejected == ["otherManufacturer": 1])
    }

    @Test func anExtendedAdvertisingReportDecodesToo() throws {
        let data = AdvertisingData.encode(Self.frame)
        var report: [UInt8] = [0x10, 0x00, 0x01, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x01, 0x00, 0xFF, 0x7F]
        report += [0xBA, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, UInt8(data.count)] + data  // RSSI BA: −70
        let parameters: [UInt8] = [0x0D, 0x01] + report
        let packet: [UInt8] = [0x04, 0x3E, UInt8(parameters.count)] + parameters
        var decoder = AdvertisementDecoder()
        let found = decoder.decode(hciPacket: packet, time: at(3))
        #expect(found.map(\.rssi) == [-70])
        #expect(found.first?.uuid == trailUUID)
    }

    struct BadPacket: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var reason: AdvertisementRejection
        /// Reports before the problem are delivered.
        var delivered = 0
        var testDescription: String { name }
    }

    static let badPackets: [BadPacket] = {
        let good = capturedIBeacon
        var longer = good
        longer[2] = 0x30
        var shorter = good
        shorter[2] = 0x20
        var tooManyReports = good
        tooManyReports[4] = 0x02
        var dataPastTheEnd = good
        dataPastTheEnd[13] = 0x30
        return [
            BadPacket(name: "empty", bytes: [], reason: .truncated),
            BadPacket(name: "cut after the header", bytes: Array(good.prefix(3)), reason: .truncated),
            BadPacket(name: "cut in the middle", bytes: Array(good.prefix(30)), reason: .truncated),
            BadPacket(name: "length says more than there is", bytes: longer, reason: .truncated),
            BadPacket(name: "length says less than there is", bytes: shorter, reason: .wrongLength),
            BadPacket(name: "a second report that is not there", bytes: tooManyReports, reason: .malformed, delivered: 1),
            BadPacket(name: "a data length past the end", bytes: dataPastTheEnd, reason: .malformed),
            BadPacket(name: "command complete", bytes: hex("04 0E 04 01 0B 20 00"), reason: .notAdvertisingReport),
            BadPacket(name: "LE connection complete", bytes: hex("04 3E 02 01 00"), reason: .notAdvertisingReport),
            BadPacket(name: "an ACL data packet", bytes: hex("02 40 20 00 00"), reason: .notAdvertisingReport),
        ]
    }()

    @Test("malformed and foreign HCI packets are counted by reason", arguments: badPackets)
    func badPacket(_ c: BadPacket) {
        var decoder = AdvertisementDecoder()
        #expect(decoder.decode(hciPacket: c.bytes, time: at(0)).count == c.delivered)
        #expect(decoder.counts[c.reason] == 1, "\(decoder.counts.rejected)")
        #expect(decoder.counts.rejectedTotal == 1)
    }

    @Test func everyPrefixAndEveryByteFlipOfACaptureIsHandled() {
        // No input makes the decoder trap: each prefix and each single-byte change of the capture
        // either decodes or is counted once.
        var decoder = AdvertisementDecoder()
        var events = 0
        for length in 0...Self.capturedIBeacon.count {
            _ = decoder.decode(hciPacket: Array(Self.capturedIBeacon.prefix(length)), time: at(0))
            events += 1
        }
        for position in Self.capturedIBeacon.indices {
            for value in [UInt8(0x00), 0x01, 0x7F, 0xFF] {
                var bytes = Self.capturedIBeacon
                bytes[position] = value
                _ = decoder.decode(hciPacket: bytes, time: at(0))
                events += 1
            }
        }
        #expect(decoder.counts.accepted + decoder.counts.rejectedTotal >= events)
    }

    @Test func scanParametersBecomeHCICommands() {
        let scan = ScanParameters.default
        #expect(scan.dutyCycle == 0.5)
        #expect(scan.problem == nil)
        // OGF 0x08, OCF 0x000B → opcode 0x200B little-endian; interval 160 × 0.625 ms, window 80.
        #expect(HCICommand.setScanParameters(scan) == hex("01 0B 20 07 00 A0 00 50 00 00 00"))
        #expect(HCICommand.setScanEnable(true) == hex("01 0C 20 02 01 00"))
        #expect(HCICommand.setScanEnable(false) == hex("01 0C 20 02 00 00"))
        #expect(ScanParameters(interval: 0.1, window: 0.2).problem?.contains("cannot be longer") == true)
        #expect(ScanParameters(interval: 20, window: 0.2).problem?.contains("10.24 s") == true)
    }

    @Test func uuidsParseAndPrintInTheCanonicalForm() {
        #expect(BeaconUUID("e2c56db5-dffb-48d2-b060-d0f5a71096e0") == trailUUID)
        #expect(trailUUID.description == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        for bad in ["", "E2C56DB5DFFB48D2B060D0F5A71096E0", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E", "G2C56DB5-DFFB-48D2-B060-D0F5A71096E0",
            "E2C56DB5-DFFB-48D2-B060_D0F5A71096E0"]
        {
            #expect(BeaconUUID(bad) == nil, "\(bad)")
        }
    }
}
