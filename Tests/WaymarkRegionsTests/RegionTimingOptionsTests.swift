import Testing
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions

/// Issue 38's per-region timing in GeoJSON properties: `enterDelay`, `exitDelay`, `margin` (or
/// `hysteresis`), `maxAccuracy`, `priority` (docs/semantics.md §3.2).
struct RegionTimingOptionsTests {
    /// A collection whose second feature, a 60 m circle with `properties` (JSON members), is alone on line 3.
    static func collection(_ properties: String) -> String {
        let good = #"{"type":"Feature","id":"ok","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}"#
        let home = #"{"type":"Feature","id":"home","properties":{"radius":60,"# + properties
            + #"},"geometry":{"type":"Point","coordinates":[11.5,48.1]}}"#
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + good + ",\n" + home + "\n]}\n"
    }

    static func options(_ properties: String) throws -> RegionOptions {
        try GeoJSONRegionDecoder().decode(Array(collection(properties).utf8), file: "home.geojson")[1].region.options
    }

    @Test func eachOptionIsRead() throws {
        let options = try Self.options(#""enterDelay":30,"exitDelay":180,"margin":25,"maxAccuracy":100,"priority":10"#)
        #expect(options == RegionOptions(hysteresis: 25, enterDelay: 30, exitDelay: 180, maxAccuracy: 100, priority: 10))
        #expect(try Self.options(#""enterDelay":0,"exitDelay":0.5"#) == RegionOptions(enterDelay: 0, exitDelay: 0.5))
        #expect(try Self.options(#""priority":-1000000"#).priority == -1_000_000)
        #expect(try Self.options(#""priority":1e6"#).priority == 1_000_000)
        #expect(try Self.options(#""priority":7.0"#).priority == 7)
        #expect(try Self.options(#""maxAccuracy":0.5"#).maxAccuracy == 0.5)
    }

    @Test func absentOrNullTakeTheDefaults() throws {
        #expect(try Self.options(#""name":"Home""#) == RegionOptions())
        #expect(try Self.options(#""enterDelay":null,"exitDelay":null,"margin":null,"maxAccuracy":null,"priority":null"#) == RegionOptions())
        // confirmationTime stays: the engine falls back to it for both delays.
        #expect(try Self.options(#""confirmationTime":45"#) == RegionOptions(confirmationTime: 45))
    }

    @Test func marginIsHysteresisNewName() throws {
        #expect(try Self.options(#""hysteresis":12"#).hysteresis == 12)
        #expect(try Self.options(#""margin":12"#).hysteresis == 12)
        #expect(try Self.options(#""margin":12,"hysteresis":12"#).hysteresis == 12)
        #expect(try Self.options(#""margin":null,"hysteresis":9"#).hysteresis == 9)
    }

    @Test func similarKeysAreTheUsersData() throws {
        #expect(try Self.options(#""enter_delay":"x","ExitDelay":-1,"Margin":"wide","maxaccuracy":0,"prio":1.5"#) == RegionOptions())
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var properties: String
        var key: String
        /// The offending value's text, first found on line 3 after the properties' start.
        var at: String
        var message: String
        var testDescription: String { "\(key): \(properties)" }
    }

    static let bad: [Bad] = [
        Bad(properties: #""enterDelay":-1"#, key: "enterDelay", at: "-1", message: "properties.enterDelay must be a finite number of seconds ≥ 0"),
        Bad(properties: #""enterDelay":"30s""#, key: "enterDelay", at: #""30s""#, message: "finite number of seconds ≥ 0"),
        Bad(properties: #""exitDelay":-0.5"#, key: "exitDelay", at: "-0.5", message: "properties.exitDelay must be a finite number of seconds ≥ 0"),
        Bad(properties: #""exitDelay":true"#, key: "exitDelay", at: "true", message: "seconds ≥ 0"),
        Bad(properties: #""margin":-3"#, key: "margin", at: "-3", message: "properties.margin must be a finite number of metres ≥ 0"),
        Bad(properties: #""margin":[25]"#, key: "margin", at: "[25]", message: "metres ≥ 0"),
        Bad(
            properties: #""hysteresis":30,"margin":25"#, key: "margin", at: "25",
            message: "properties.margin (25) and properties.hysteresis (30) differ"),
        Bad(properties: #""maxAccuracy":0"#, key: "maxAccuracy", at: "0", message: "properties.maxAccuracy must be a finite number of metres > 0"),
        Bad(properties: #""maxAccuracy":-100"#, key: "maxAccuracy", at: "-100", message: "metres > 0"),
        Bad(properties: #""priority":1.5"#, key: "priority", at: "1.5", message: "properties.priority must be an integer within -1000000…1000000"),
        Bad(properties: #""priority":1000001"#, key: "priority", at: "1000001", message: "an integer within -1000000…1000000"),
        Bad(properties: #""priority":-2e6"#, key: "priority", at: "-2e6", message: "an integer within"),
        Bad(properties: #""priority":"high""#, key: "priority", at: #""high""#, message: "an integer within"),
    ]

    @Test("a bad option: invalid-option at its line, column and path", arguments: bad)
    func badOption(_ c: Bad) throws {
        let text = Self.collection(c.properties)
        let line3 = text.split(separator: "\n", omittingEmptySubsequences: false)[2]
        let properties = try #require(line3.firstRange(of: #""radius":60,"#)).upperBound
        let value = try #require(line3[properties...].firstRange(of: ":" + c.at)).lowerBound
        let column = line3.utf8.distance(from: line3.startIndex, to: value) + 2
        do {
            _ = try GeoJSONRegionDecoder().decode(Array(text.utf8), file: "home.geojson")
            Issue.record("accepted \(c.properties)")
        } catch {
            #expect(error.code == .invalidOption)
            #expect(error.path == "features[1].properties.\(c.key)")
            #expect(error.featureIndex == 1)
            #expect(error.featureIdentifier == "home")
            #expect(error.location == SourceLocation(file: "home.geojson", line: 3, column: column), "\(error)")
            #expect(error.message.contains(c.message), "\(error.message)")
            #expect(error.description.hasPrefix("home.geojson:3:\(column): features[1].properties.\(c.key)"), "\(error.description)")
        }
    }
}
