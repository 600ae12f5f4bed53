import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WaymarkAPI
import WaymarkCore
import WaymarkRegions

/// Issue 38's per-region timing through `POST /v1/regions`: the options arrive as feature
/// properties, a bad one is a 400 naming its line, column and field, and the region's answers
/// show what it is monitored with.
@Suite struct RegionOptionsRouteTests {
    static let collection = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","id":"home","properties":{"radius":60,"enterDelay":30,"exitDelay":180,"margin":25,"maxAccuracy":100,"priority":10},"geometry":{"type":"Point","coordinates":[4.1,52.1]}},
          {"type":"Feature","id":"gym","properties":{"radius":30,"margin":5,"hysteresis":8},"geometry":{"type":"Point","coordinates":[4.2,52.2]}}
        ]}
        """

    @Test(arguments: [
        (#""margin":5,"hysteresis":8"#, "margin", 67, "properties.margin (5) and properties.hysteresis (8) differ"),
        (#""priority":2.5"#, "priority", 69, "must be an integer within -1000000…1000000"),
        (#""maxAccuracy":0"#, "maxAccuracy", 72, "finite number of metres > 0"),
        (#""exitDelay":-1"#, "exitDelay", 70, "finite number of seconds ≥ 0"),
    ])
    func aBadOptionIs400WithLineColumnAndField(_ properties: String, _ key: String, _ column: Int, _ message: String) async throws {
        let backend = FakeBackend()
        let body = Self.collection.replacingOccurrences(of: #""margin":5,"hysteresis":8"#, with: properties)
        try await APIRouterTests.withClient(backend) { client in
            let response = try await client.execute(
                uri: "/v1/regions", method: .post, headers: APIRouterTests.jsonType, body: ByteBuffer(string: body))
            #expect(response.status == .badRequest)
            let error = try APIRouterTests.error(response)
            #expect(error.code == "geojson.invalid-option")
            #expect(error.message.hasPrefix("request body:3:\(column): features[1].properties.\(key) (feature \"gym\"): "), "\(error.message)")
            #expect(error.message.contains(message), "\(error.message)")
            let location = try #require(error.object["location"] as? [String: Any])
            #expect(location["line"] as? Int == 3)
            #expect(location["column"] as? Int == column)
            #expect(error.object["path"] as? String == "features[1].properties.\(key)")
            // Nothing of the document is imported.
            #expect(backend.state.withLock { $0.regions.map(\.identifier) } == ["park", "block"])
        }
    }

    @Test func theOptionsArriveAndAreShown() async throws {
        let backend = FakeBackend()
        let body = Self.collection.replacingOccurrences(of: #""margin":5,"hysteresis":8"#, with: #""hysteresis":8"#)
        try await APIRouterTests.withClient(backend) { client in
            let created = try await client.execute(
                uri: "/v1/regions", method: .post, headers: APIRouterTests.jsonType, body: ByteBuffer(string: body))
            #expect(created.status == .created)
            let home = try #require(backend.state.withLock { $0.regions.first { $0.identifier == "home" } })
            #expect(home.options == RegionOptions(hysteresis: 25, enterDelay: 30, exitDelay: 180, maxAccuracy: 100, priority: 10))

            let feature = try APIRouterTests.json(try await client.execute(uri: "/v1/regions/home", method: .get).body)
            let options = try #require(feature["options"] as? [String: Any])
            #expect(options["enterDelay"] as? Double == 30)
            #expect(options["exitDelay"] as? Double == 180)
            #expect(options["margin"] as? Double == 25)
            #expect(options["maxAccuracy"] as? Double == 100)
            #expect(options["priority"] as? Int == 10)
            let list = try APIRouterTests.json(try await client.execute(uri: "/v1/regions", method: .get).body)
            let gym = try #require((list["regions"] as? [[String: Any]])?.first { $0["identifier"] as? String == "gym" })
            let gymOptions = try #require(gym["options"] as? [String: Any])
            #expect(gymOptions["margin"] as? Double == 8)
            #expect(gymOptions["enterDelay"] as? Double == 20)
            #expect(gymOptions["maxAccuracy"] is NSNull)
            #expect(gymOptions["priority"] as? Int == 0)
        }
    }
}
