import WaymarkCore

/// Turns bytes heard over the air into iBeacon advertisements, counting what it ignores by
/// reason. The same decoder serves the HCI socket, replayed HCI captures and the benchmark.
public struct AdvertisementDecoder: Sendable {
    public private(set) var counts = AdvertisementCounts()

    public init() {}

    /// The iBeacon advertisements in one HCI event packet (`HCIAdvertisingReport`), received at
    /// `time`, each passed to `body`. Reports that are not iBeacons are counted; a malformed
    /// packet is counted once.
    @inline(__always)
    public mutating func decode(
        hciPacket packet: UnsafeBufferPointer<UInt8>, time: Timestamp, _ body: (BeaconAdvertisement) -> Void
    ) {
        var counts = self.counts
        let problem = HCIAdvertisingReport.forEachReport(in: packet) { data, rssi in
            switch AdvertisingData.iBeacon(in: data) {
            case .success(let frame):
                counts.accepted += 1
                body(Self.advertisement(frame, rssi: rssi ?? 0, time: time))
            case .failure(let reason):
                counts.count(reason)
            }
        }
        if let problem { counts.count(problem) }
        self.counts = counts
    }

    /// `decode(hciPacket:time:_:)` over an array, collecting the advertisements.
    public mutating func decode(hciPacket packet: [UInt8], time: Timestamp) -> [BeaconAdvertisement] {
        var found: [BeaconAdvertisement] = []
        packet.withUnsafeBufferPointer { decode(hciPacket: $0, time: time) { found.append($0) } }
        return found
    }

    /// The iBeacon in one report's advertising data, or nil (counted by reason).
    public mutating func decode(advertisingData data: [UInt8], rssi: Int8, time: Timestamp) -> BeaconAdvertisement? {
        switch AdvertisingData.iBeacon(in: data) {
        case .success(let frame):
            counts.accepted += 1
            return Self.advertisement(frame, rssi: rssi, time: time)
        case .failure(let reason):
            counts.count(reason)
            return nil
        }
    }

    /// Counts an advertisement that arrived already decoded (a replay file's JSON line).
    public mutating func countDecoded() { counts.accepted += 1 }

    @inline(__always)
    static func advertisement(_ frame: IBeaconFrame, rssi: Int8, time: Timestamp) -> BeaconAdvertisement {
        BeaconAdvertisement(
            time: time, uuid: frame.uuid, major: frame.major, minor: frame.minor, measuredPower: frame.measuredPower,
            rssi: rssi)
    }
}
