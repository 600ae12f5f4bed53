import Foundation
import WaymarkCore

/// A fix as it travels on the bus from an ingest node to the worker that owns its device: the
/// device's name and the fix's fields, JSON with short keys (a fleet moves millions of them).
/// Every fix on the bus has a time: the network protocols always carry one.
struct FixPayload: Codable, Sendable, Equatable {
    var d: String
    var t: Int64
    var lat: Double
    var lon: Double
    var alt: Double?
    var acc: Double?
    var vac: Double?
    var spd: Double?
    var crs: Double?
    var sat: Int?
    var mode: String?

    init(device: String, fix: Fix, time: Timestamp) {
        d = device
        t = time.nanosecondsSince1970
        lat = fix.coordinate.latitude
        lon = fix.coordinate.longitude
        alt = fix.altitude
        acc = fix.horizontalAccuracy
        vac = fix.verticalAccuracy
        spd = fix.speed
        crs = fix.course
        sat = fix.satellites
        mode = fix.mode?.rawValue
    }

    var device: String { d }

    var fix: Fix {
        Fix(
            time: Timestamp(nanosecondsSince1970: t), coordinate: Coordinate(latitude: lat, longitude: lon), altitude: alt,
            horizontalAccuracy: acc, verticalAccuracy: vac, satellites: sat, mode: mode.flatMap(FixMode.init(rawValue:)),
            speed: spd, course: crs)
    }

    func encoded() -> [UInt8] {
        // Encoding a struct of numbers and strings cannot fail.
        (try? Array(Self.encoder.encode(self))) ?? []
    }

    static func decode(_ bytes: [UInt8]) throws -> FixPayload {
        try JSONDecoder().decode(FixPayload.self, from: Data(bytes))
    }

    private static let encoder = JSONEncoder()
}
