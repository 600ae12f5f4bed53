import WaymarkBeacons
import WaymarkCore

/// Fuzzes `AdvertisementDecoder.decode(hciPacket:time:_:)` (WaymarkBeacons: HCI/
/// HCIAdvertisingReport and Parsing/ AdvertisingData, IBeaconFrame): each packet read from the
/// Bluetooth HCI socket (WaymarkSources' `HCIEventReader.run`, at most 260 bytes a read, so run
/// with -max_len=260) and each `hci` line of a beacon replay file. The input is one packet, in
/// an allocation of exactly its size so that AddressSanitizer sees any read past its end.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var decoder = AdvertisementDecoder()
    var found = 0
    decoder.decode(hciPacket: UnsafeBufferPointer(start: data, count: size), time: Timestamp(secondsSince1970: 1_780_000_000)) { advertisement in
        found += 1
        _ = advertisement
    }
    if decoder.counts.accepted != found {
        fatalError("accepted count \(decoder.counts.accepted) but \(found) advertisements delivered")
    }
    return 0
}
