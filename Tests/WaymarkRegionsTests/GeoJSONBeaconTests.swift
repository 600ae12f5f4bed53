import Testing
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions

/// Beacon regions in GeoJSON: `geometry: null` with `properties.beacon`, and the errors a user
/// sees for bad ones, at the offending field's line and column.
@Suite struct GeoJSONBeaconTests {
    static func feature(_ beacon: String, geometry: String = "null") -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[\n"
            + #"{"type":"Feature","id":"ok","geometry":null,"properties":{"beacon":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"}}},"#
            + "\n" + #"{"type":"Feature","id":"x","geometry":"# + geometry + #","properties":{"beacon":"# + beacon + "}}\n]}"
    }

    @Test func aBeaconFeatureDecodesWithWildcards() throws {
        let text = Self.feature(#"{"uuid":"8deefbb9-f738-4297-8040-96668bb44281","major":5000,"minor":null}"#)
        let regions = try GeoJSONRegionDecoder().decode(Array(text.utf8), file: "b.geojson").map(\.region)
        #expect(regions[0].beacon == BeaconIdentity(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!))
        #expect(regions[1].beacon == BeaconIdentity(uuid: BeaconUUID("8DEEFBB9-F738-4297-8040-96668BB44281")!, major: 5000))
        #expect(regions[1].propertiesJSON == #"{"beacon":{"uuid":"8deefbb9-f738-4297-8040-96668bb44281","major":5000,"minor":null}}"#)
        #expect(!regions[1].isGeographic)
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var beacon: String
        var geometry = "null"
        var path: String
        /// The offending value's text: the error's column is where it first occurs on line 3.
        var at: String
        var message: String
        var testDescription: String { path + ": " + message }
    }

    @Test(
        "bad beacon features name the field, its line and column",
        arguments: [
            Bad(beacon: #"{"uuid":"not-a-uuid"}"#, path: "features[1].properties.beacon.uuid", at: #""not-a-uuid""#,
                message: "8-4-4-4-12"),
            Bad(beacon: #"{"uuid":42}"#, path: "features[1].properties.beacon.uuid", at: "42", message: "found a number"),
            Bad(beacon: #"{"major":1}"#, path: "features[1].properties.beacon", at: #"{"major""#, message: "needs a \"uuid\""),
            Bad(beacon: #"{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":65536}"#,
                path: "features[1].properties.beacon.major", at: "65536", message: "0…65535"),
            Bad(beacon: #"{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","minor":-1}"#,
                path: "features[1].properties.beacon.minor", at: "-1", message: "found -1"),
            Bad(beacon: #"{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","minor":2.5}"#,
                path: "features[1].properties.beacon.minor", at: "2.5", message: "integer"),
            Bad(beacon: #"{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":"7"}"#,
                path: "features[1].properties.beacon.major", at: #""7""#, message: "found a string"),
            Bad(beacon: #"{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","mjaor":7}"#,
                path: "features[1].properties.beacon.mjaor", at: "7}", message: "unknown member \"mjaor\""),
            Bad(beacon: #""E2C56DB5-DFFB-48D2-B060-D0F5A71096E0""#, path: "features[1].properties.beacon",
                at: #""E2C56DB5"#, message: "expected an object"),
            Bad(beacon: #"{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"}"#, geometry: #"{"type":"Point","coordinates":[1,2]}"#,
                path: "features[1].geometry", at: #"{"type":"Point""#, message: "has no geometry"),
        ])
    func badBeacon(_ c: Bad) throws {
        try expectLine3Error(Self.feature(c.beacon, geometry: c.geometry), code: .invalidBeacon, path: c.path, at: c.at, message: c.message)
    }

    @Test func aNullGeometryWithoutABeaconSaysWhatIsMissing() throws {
        let text = #"{"type":"Feature","id":"x","geometry":null,"properties":{"name":"x"}}"#
        #expect {
            try GeoJSONRegionDecoder().decode(Array(text.utf8), file: "f.geojson")
        } throws: { error in
            guard let error = error as? GeoJSONError else { return false }
            return error.code == .unsupportedGeometry && error.description.hasPrefix("f.geojson:1:39: geometry")
                && error.message.contains("properties.beacon")
        }
    }
}
