import Foundation
import WaymarkCore
import WaymarkExport
import WaymarkOutputs
import WaymarkRegions
import WaymarkStore

/// Drives fixes with extreme and non-finite numbers through everything that writes a stored fix
/// out (issue 48: one accuracy of 1e308 trapped the MQTT outputs on every restart). The input's
/// bytes become fixes: each number is either one of `special` (a tag byte below 128) or the next
/// 8 bytes as a Double's bit pattern; times are any Int64 of nanoseconds. Each fix goes through
/// the OwnTracks and Home Assistant formats, a transition at it, the history's JSON record (what
/// `/v1/history` and `/v1/last` splice in) and the CloudEvent around it; the track through the
/// statistics, the GPX, GeoJSON and KML writers and an SVG picture with its elevation profile.
/// Every JSON produced must parse. A trap, a hang or invalid JSON is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var reader = ExtremeReader(bytes: UnsafeBufferPointer(start: data, count: size))
    var fixes: [Fix] = []
    while !reader.isAtEnd && fixes.count < 24 { fixes.append(reader.fix()) }
    guard !fixes.isEmpty else { return 0 }
    for (index, fix) in fixes.enumerated() { writeOut(fix, sequence: Int64(index)) }
    exportTrack(fixes)
    return 0
}

/// Numbers a fuzzer would take long to build from bits alone.
let special: [Double] = [
    .infinity, -.infinity, .nan, -.nan, .signalingNaN, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
    .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, 0, -0.0, 1e17, -1e17, 1e308, -1e308,
    9.223372036854775807e18, -9.223372036854775808e18, 4.6e18, 2_147_483_648, 359.5, 360, -0.5, 0.5, 1, 100_000,
]

struct ExtremeReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var isAtEnd: Bool { index >= bytes.count }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func bits() -> UInt64 {
        (0..<8).reduce(UInt64(0)) { value, _ in value << 8 | UInt64(byte()) }
    }

    mutating func double() -> Double {
        let tag = byte()
        return tag < 128 ? special[Int(tag) % special.count] : Double(bitPattern: bits())
    }

    /// Present or absent, by a byte's low bit.
    mutating func optional() -> Double? { byte() & 1 == 1 ? double() : nil }

    /// Any value made a valid degree (stored fixes are on Earth): finite ones folded in, others 0.
    mutating func degrees(_ limit: Double) -> Double {
        let value = double()
        return value.isFinite ? value.truncatingRemainder(dividingBy: limit) : 0
    }

    mutating func fix() -> Fix {
        let time = byte() & 1 == 1 ? Timestamp(nanosecondsSince1970: Int64(bitPattern: bits())) : Timestamp(nanosecondsSince1970: 1_780_000_000_000_000_000)
        return Fix(
            time: time, coordinate: Coordinate(latitude: degrees(90), longitude: degrees(180)), altitude: optional(),
            horizontalAccuracy: optional(), verticalAccuracy: optional(), hdop: optional(), vdop: optional(), pdop: optional(),
            satellites: byte() & 1 == 1 ? Int(Int8(bitPattern: byte())) : nil, speed: optional(), course: optional(),
            latitudeAccuracy: optional(), longitudeAccuracy: optional())
    }
}

func requireJSON(_ text: String, _ what: String) {
    guard (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil else {
        fatalError("\(what) is not JSON: \(text)")
    }
}

/// One stored fix through every output format and the history's record.
func writeOut(_ fix: Fix, sequence: Int64) {
    let time = fix.time ?? Timestamp(nanosecondsSince1970: 0)
    let output = OutputFix(
        sequence: sequence, device: "phone", time: time, coordinate: fix.coordinate, accuracy: fix.horizontalAccuracy, hdop: fix.hdop,
        altitude: fix.altitude, speed: fix.speed, course: fix.course)
    requireJSON(OwnTracksFormat.location(output, user: "alice", base: "owntracks", origin: "urn:waymark:fuzz").payload, "OwnTracks location")
    requireJSON(HomeAssistantFormat.location(output, base: "waymark").payload, "Home Assistant attributes")
    let record = StoredFix(id: sequence, fix: fix, source: "network", device: "phone").jsonLine
    requireJSON(record, "history record")
    let event = OutputEvent(
        sequence: sequence, device: "phone", time: time, kind: .region, region: "home", transition: "enter", record: record,
        coordinate: fix.coordinate)
    if let transition = OwnTracksFormat.message(for: event, fix: output, user: "alice", base: "owntracks", origin: "o") {
        requireJSON(transition.payload, "OwnTracks transition")
    }
    requireJSON(CloudEvent.json(event, source: "urn:waymark:fuzz"), "CloudEvent")
}

/// The fixes as one track through the statistics and every export writer.
func exportTrack(_ fixes: [Fix]) {
    var statistics = TrackStatisticsAccumulator()
    var box = BoundingBox(fixes[0].coordinate)
    for (index, fix) in fixes.enumerated() {
        statistics.add(fix, startsSegment: index == 0)
        box.formUnion(fix.coordinate)
    }
    let result = statistics.result
    requireJSON(result.json, "statistics")
    _ = (result.table, result.headline)
    let event = TrackEvent(
        kind: .enter, time: fixes[0].time, coordinate: fixes[0].coordinate, altitude: fixes[0].altitude, region: "home", name: "Enter home",
        description: "")
    let overview = TrackOverview(
        name: "fuzz", statistics: result, bounds: box, events: [event], allPointsHaveAltitude: fixes.allSatisfy { $0.altitude != nil })
    do {
        var gpx = try GPXWriter(sink: StringSink(), overview: overview)
        var geoJSON = try GeoJSONWriter(sink: StringSink(), overview: overview)
        var kml = try KMLWriter(sink: StringSink(), overview: overview)
        let layout = PictureLayout(bounds: MapPicture<SVGCanvas<StringSink>>.bounds(of: overview) ?? box, width: 320, kind: .picture)
        var picture = MapPicture(canvas: try SVGCanvas(sink: StringSink(), width: layout.width, height: layout.height), layout: layout, overview: overview)
        for (index, fix) in fixes.enumerated() {
            try gpx.write(fix, startsSegment: index == 0)
            try geoJSON.write(fix, startsSegment: index == 0)
            try kml.write(fix, startsSegment: index == 0)
            try picture.write(fix, startsSegment: index == 0)
        }
        try gpx.finish()
        try geoJSON.finish()
        try kml.finish()
        try picture.finish()
        requireJSON(geoJSON.sink.text, "GeoJSON export")
    } catch {
        _ = "\(error)"
    }
}
