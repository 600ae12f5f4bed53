import Foundation
import Testing
import WaymarkCore
import WaymarkOutputs

/// Issue 48: a stored fix may hold any Double (a database from before the decoders' bounds);
/// every output format writes valid JSON for it, leaving out what it cannot say, and never traps.
@Suite struct ExtremeFixOutputTests {
    static let extremes: [Double] = [
        1e308, -1e308, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan,
        9.3e18, -9.3e18, 1e17, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, -0.0, 359.5, -720.2,
    ]

    static func fix(_ value: Double) -> OutputFix {
        OutputFix(
            sequence: 1, device: "phone", time: Timestamp(nanosecondsSince1970: .max), coordinate: Coordinate(latitude: 46.5, longitude: 7.5),
            accuracy: value, hdop: value, altitude: value, speed: value, course: value)
    }

    static func object(_ payload: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
    }

    /// Each member is absent, or a finite number.
    static func expectFinite(_ object: [String: Any], _ keys: [String], _ value: Double) {
        for key in keys {
            guard let member = object[key] else { continue }
            let number = member as? NSNumber
            #expect(number != nil && number!.doubleValue.isFinite, "\(key) for \(value): \(member)")
        }
    }

    @Test("OwnTracks location and transition", arguments: extremes)
    func ownTracks(_ value: Double) throws {
        let location = OwnTracksFormat.location(Self.fix(value), user: "alice", base: "owntracks", origin: "urn:waymark:pi")
        let object = try Self.object(location.payload)
        Self.expectFinite(object, ["acc", "alt", "vel", "cog", "tst"], value)
        if let course = object["cog"] as? Int { #expect((0..<360).contains(course)) }
        if let acc = object["acc"] as? Int { #expect(acc >= 1) }
        let event = OutputEvent(
            sequence: 1, device: "phone", time: Timestamp(nanosecondsSince1970: .min), kind: .region, region: "home", transition: "enter",
            record: "{}", coordinate: nil)
        let transition = try #require(OwnTracksFormat.message(for: event, fix: Self.fix(value), user: "alice", base: "owntracks", origin: "o"))
        Self.expectFinite(try Self.object(transition.payload), ["acc", "tst", "wtst", "lat", "lon"], value)
    }

    @Test("Home Assistant tracker attributes", arguments: extremes)
    func homeAssistant(_ value: Double) throws {
        let message = HomeAssistantFormat.location(Self.fix(value), base: "waymark")
        Self.expectFinite(try Self.object(message.payload), ["gps_accuracy", "altitude", "speed", "course", "latitude", "longitude"], value)
    }

    /// The exact cases of the report: 1e308 is left out, not trapped on; a sane fix keeps them.
    @Test func hugeValuesAreLeftOutAndSaneOnesKept() throws {
        let huge = try Self.object(OwnTracksFormat.location(Self.fix(1e308), user: "a", base: "b", origin: "o").payload)
        #expect(huge["acc"] == nil && huge["alt"] == nil && huge["vel"] == nil && huge["cog"] == nil)
        var sane = Self.fix(10)
        sane.course = -90
        let object = try Self.object(OwnTracksFormat.location(sane, user: "a", base: "b", origin: "o").payload)
        #expect(object["acc"] as? Int == 10 && object["alt"] as? Int == 10 && object["vel"] as? Int == 36 && object["cog"] as? Int == 270)
    }
}
