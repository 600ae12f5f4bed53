import WaymarkCore
import WaymarkServices

/// Where the hand-made tracks start (Ljubljana) and when.
let origin = Coordinate(latitude: 46.05, longitude: 14.5)
let startTime = Timestamp(nanosecondsSince1970: 1_700_000_000_000_000_000)

/// A coordinate `north` metres then `east` metres (negative for south and west) from `origin`,
/// along geodesics.
func offset(north: Double, east: Double = 0) -> Coordinate {
    let step = Geodesic.destination(from: origin, azimuth: north < 0 ? 180 : 0, distance: abs(north))
    return Geodesic.destination(from: step, azimuth: east < 0 ? 270 : 90, distance: abs(east))
}

/// A fix at metre offsets from `origin`, `seconds` after `startTime`.
func fix(
    north: Double, east: Double = 0, at seconds: Double?, mode: FixMode? = nil,
    horizontalAccuracy: Double? = nil
) -> Fix {
    Fix(
        time: seconds.map { startTime.adding(seconds: $0) }, coordinate: offset(north: north, east: east),
        horizontalAccuracy: horizontalAccuracy, mode: mode)
}

/// Runs `service` over `fixes` (and its `finish`), collecting every record.
func run<Service: LocationService>(_ service: Service, _ fixes: [Fix]) -> [LocationRecord] {
    var service = service
    var records = fixes.flatMap { service.process($0) }
    records += service.finish()
    return records
}

extension LocationRecord {
    /// The value of field `key` as its JSON record writes it, if present.
    func field(_ key: String) -> String? {
        switch members.first(where: { $0.key == key })?.value {
        case .number(let number): JSONObjectWriter.number(number)
        case .integer(let integer): String(integer)
        case .text(let text): JSONObjectWriter.quoted(text)
        case .coordinate(let position): "{\"latitude\":\(JSONObjectWriter.number(position.latitude)),\"longitude\":\(JSONObjectWriter.number(position.longitude))}"
        case nil: nil
        }
    }

    /// The fields after kind, time and coordinate, in their JSON order.
    var fieldNames: [String] { members.map(\.key) }
}
