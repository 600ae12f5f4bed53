import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WaymarkAPI
import WaymarkCore
import WaymarkStore

/// Every endpoint through Hummingbird's in-process router test client, with a fake daemon.
@Suite struct APIRouterTests {
    static func app(_ backend: FakeBackend, maximumBodySize: Int = 64 << 20, token: String? = nil) -> some ApplicationProtocol {
        let configuration = APIServer.Configuration(socketPath: "/unused", maximumBodySize: maximumBodySize)
        return Application(router: APIServer.makeRouter(backend: backend, configuration: configuration, token: token))
    }

    /// Runs `body` against a router over `backend`.
    static func withClient(
        _ backend: FakeBackend = FakeBackend(), maximumBodySize: Int = 64 << 20, token: String? = nil,
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await app(backend, maximumBodySize: maximumBodySize, token: token).test(.router, body)
    }

    static func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))
        return try #require(object as? [String: Any])
    }

    static func error(_ response: TestResponse) throws -> (code: String, message: String, object: [String: Any]) {
        #expect(response.headers[.contentType] == "application/json")
        let error = try #require(try json(response.body)["error"] as? [String: Any])
        return (try #require(error["code"] as? String), try #require(error["message"] as? String), error)
    }

    @Test func healthAndStatus() async throws {
        try await Self.withClient { client in
            let health = try await client.execute(uri: "/v1/health", method: .get)
            #expect(health.status == .ok)
            #expect(String(buffer: health.body) == "{\"status\":\"ok\",\"tokenRequired\":false}")

            let status = try await client.execute(uri: "/v1/status", method: .get)
            #expect(status.status == .ok)
            let object = try Self.json(status.body)
            #expect(object["version"] as? String == "0.1.0-test")
            #expect(object["regionCount"] as? Int == 2)
            #expect(object["uptimeSeconds"] as? Double == 12.5)
            let source = try #require(object["source"] as? [String: Any])
            #expect(source["kind"] as? String == "gpsd")
            #expect(source["connected"] as? Bool == true)
            #expect(source["lastError"] is NSNull)
            let counters = try #require(object["counters"] as? [String: Int])
            #expect(counters == ["fixesRecorded": 3, "eventsRecorded": 1, "fixesDropped": 2])
            let lastFix = try #require(object["lastFix"] as? [String: Any])
            #expect(lastFix["latitude"] as? Double == 52.002)
            let subscriptions = try #require(object["subscriptions"] as? [[String: Any]])
            #expect(subscriptions.count == 1)
            #expect(subscriptions.first?["name"] as? String == "ride-log")
            #expect(subscriptions.first?["services"] as? [String] == ["significantChange", "visits"])
            #expect(subscriptions.first?["dropped"] as? [String: Int] == ["timeBackwards": 1])
        }
    }

    @Test func lastFixAndNoFix() async throws {
        try await Self.withClient { client in
            let response = try await client.execute(uri: "/v1/fixes/last", method: .get)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == FakeBackend.sampleHistory[4].json)
        }
        try await Self.withClient(FakeBackend(history: [FakeBackend.gap(0)])) { client in
            let response = try await client.execute(uri: "/v1/fixes/last", method: .get)
            #expect(response.status == .notFound)
            #expect(try Self.error(response).code == "no-fix")
        }
    }

    @Test func historyPassesTheFilterAndSplicesEntries() async throws {
        let backend = FakeBackend()
        try await Self.withClient(backend) { client in
            let uri = "/v1/history?from=2024-05-01T12:00:05Z&to=2024-05-01T12:00:35%2B00:00&kind=fix,gap&kind=event&limit=2"
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .ok)
            #expect(
                String(buffer: response.body)
                    == "{\"items\":[\(FakeBackend.sampleHistory[1].json),\(FakeBackend.sampleHistory[2].json)]}")
            let request = try #require(backend.state.withLock { $0.lastRequest })
            #expect(request.from == FakeBackend.time(5))
            #expect(request.to == FakeBackend.time(35))
            #expect(request.kinds == ["fix", "gap", "event"])
            #expect(request.limit == 2)
            #expect(request.devices == nil)

            _ = try await client.execute(uri: "/v1/history?device=phone,tracker&device=local", method: .get)
            #expect(backend.state.withLock { $0.lastRequest?.devices } == ["phone", "tracker", "local"])
            let bad = try await client.execute(uri: "/v1/history?device=owntracks/alice", method: .get)
            #expect(bad.status == .badRequest)
            #expect(try Self.error(bad).object["parameter"] as? String == "device")
        }
    }

    @Test func historyAsGeoJSONHasOnePointPerLocatedEntry() async throws {
        try await Self.withClient { client in
            let response = try await client.execute(uri: "/v1/history?format=geojson", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/geo+json")
            let object = try Self.json(response.body)
            #expect(object["type"] as? String == "FeatureCollection")
            let features = try #require(object["features"] as? [[String: Any]])
            #expect(features.count == 4)  // the gap has no position
            let geometry = try #require(features[0]["geometry"] as? [String: Any])
            #expect(geometry["coordinates"] as? [Double] == [4.0, 52.0])
            #expect((features[0]["properties"] as? [String: Any])?["kind"] as? String == "fix")
        }
    }

    @Test func shorthandsPresetTheKind() async throws {
        let backend = FakeBackend()
        try await Self.withClient(backend) { client in
            let fixes = try Self.json(try await client.execute(uri: "/v1/fixes", method: .get).body)
            #expect((fixes["items"] as? [Any])?.count == 3)
            #expect(backend.state.withLock { $0.lastRequest?.kinds } == ["fix"])
            let events = try Self.json(try await client.execute(uri: "/v1/events?limit=5", method: .get).body)
            #expect((events["items"] as? [[String: Any]])?.first?["region"] as? String == "park")
            #expect(backend.state.withLock { $0.lastRequest?.kinds } == ["event"])
            let refused = try await client.execute(uri: "/v1/fixes?kind=gap", method: .get)
            #expect(refused.status == .badRequest)
        }
    }

    @Test(arguments: [
        ("/v1/history?from=yesterday", "from"),
        ("/v1/history?from=2024-05-01", "from"),
        ("/v1/history?to=2024-13-01T00:00:00Z", "to"),
        ("/v1/history?from=2024-05-02T00:00:00Z&to=2024-05-01T00:00:00Z", "to"),
        ("/v1/history?kind=fix,walk", "kind"),
        ("/v1/history?kind=", "kind"),
        ("/v1/history?limit=-1", "limit"),
        ("/v1/history?limit=2.5", "limit"),
        ("/v1/history?limit=ten", "limit"),
        ("/v1/history?format=kml", "format"),
        ("/v1/events?from=noon", "from"),
    ])
    func badHistoryParametersAre400NamingTheParameter(uri: String, parameter: String) async throws {
        try await Self.withClient { client in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .badRequest)
            let error = try Self.error(response)
            #expect(error.code == "invalid-parameter")
            #expect(error.object["parameter"] as? String == parameter)
            #expect(error.message.hasPrefix(parameter + ":"))
        }
    }

    @Test func regionListAndFeature() async throws {
        try await Self.withClient { client in
            let list = try Self.json(try await client.execute(uri: "/v1/regions", method: .get).body)
            let regions = try #require(list["regions"] as? [[String: Any]])
            #expect(regions.map { $0["identifier"] as? String } == ["park", "block"])
            #expect(regions[0]["kind"] as? String == "circle")
            #expect(regions[0]["radius"] as? Double == 150)
            #expect((regions[0]["center"] as? [String: Double]) == ["latitude": 52, "longitude": 4])
            #expect(regions[1]["kind"] as? String == "polygons")
            #expect(regions[1]["polygonCount"] as? Int == 1)
            #expect(regions[1]["properties"] is NSNull)

            let park = try await client.execute(uri: "/v1/regions/park", method: .get)
            #expect(park.status == .ok)
            #expect(
                String(buffer: park.body)
                    == "{\"type\":\"Feature\",\"id\":\"park\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[4,52]},\"properties\":{\"name\":\"park\",\"radius\":150},"
                    + #""options":{"notifyOnEntry":true,"notifyOnExit":true,"initialTrigger":false,"loiteringDelay":null,"enterDelay":20,"exitDelay":20,"margin":30,"maxAccuracy":null,"priority":0}}"#
            )
            let block = try Self.json(try await client.execute(uri: "/v1/regions/block", method: .get).body)
            let geometry = try #require(block["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "Polygon")
            #expect((geometry["coordinates"] as? [[[Double]]])?.first?.count == 4)

            let missing = try await client.execute(uri: "/v1/regions/nowhere", method: .get)
            #expect(missing.status == .notFound)
            #expect(try Self.error(missing).code == "no-region")
        }
    }

    @Test func beaconRegionsGoThroughTheSameRoutes() async throws {
        let backend = FakeBackend(regions: FakeBackend.sampleRegions + [FakeBackend.beaconRegion])
        try await Self.withClient(backend) { client in
            let list = try Self.json(try await client.execute(uri: "/v1/regions", method: .get).body)
            let tag = try #require((list["regions"] as? [[String: Any]])?.last)
            #expect(tag["kind"] as? String == "beacon")
            let beacon = try #require(tag["beacon"] as? [String: Any])
            #expect(beacon["uuid"] as? String == "8DEEFBB9-F738-4297-8040-96668BB44281")
            #expect(beacon["major"] as? Int == 42)
            #expect(beacon["minor"] is NSNull)
            // The feature reads back to the same region: geometry null, properties as imported.
            let feature = try await client.execute(uri: "/v1/regions/bike-tag", method: .get)
            #expect(
                String(buffer: feature.body)
                    == #"{"type":"Feature","id":"bike-tag","geometry":null,"properties":{"beacon":{"uuid":"8DEEFBB9-F738-4297-8040-96668BB44281","major":42},"exitTimeout":60},"#
                    + #""options":{"notifyOnEntry":true,"notifyOnExit":true,"initialTrigger":false,"loiteringDelay":null,"exitTimeout":null,"priority":0}}"#)
            let created = try await client.execute(uri: "/v1/regions", method: .post, headers: Self.jsonType, body: ByteBuffer(string: Self.beaconBody))
            #expect(created.status == .created)
            let bad = try await client.execute(
                uri: "/v1/regions", method: .post, headers: Self.jsonType,
                body: ByteBuffer(string: #"{"type":"Feature","id":"x","geometry":null,"properties":{"beacon":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","minor":70000}}}"#))
            #expect(bad.status == .badRequest)
            let error = try Self.error(bad)
            #expect(error.message.contains("request body:1:122: properties.beacon.minor"), "\(error.message)")
        }
        #expect(backend.state.withLock { $0.regions.last?.beacon?.minor } == 2)
    }

    /// What every body the API takes must say it is.
    static let jsonType: HTTPFields = [.contentType: "application/json"]

    static let beaconBody = #"{"type":"Feature","id":"hut-post","geometry":null,"properties":{"beacon":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2}}}"#

    static let importBody = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{"name":"school","radius":80},"geometry":{"type":"Point","coordinates":[4.1,52.1]}},
          {"type":"Feature","properties":{"name":"a b"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}
        ]}
        """

    /// A body that does not say it is JSON, or says it is something else, is refused with 415
    /// before it is parsed (a form another origin's page posts says `text/plain` or nothing the
    /// API takes); JSON media types, with parameters, are taken. Nothing is stored from a refusal.
    @Test(arguments: [
        (String?("text/plain"), HTTPResponse.Status.unsupportedMediaType), ("application/x-www-form-urlencoded", .unsupportedMediaType),
        ("application/xml", .unsupportedMediaType), ("application/json; charset=utf-8", .created), ("application/geo+json", .created),
        ("application/vnd.waymark+json", .created), (nil, .unsupportedMediaType),
    ])
    func bodiesMustBeJSON(contentType: String?, status: HTTPResponse.Status) async throws {
        let backend = FakeBackend()
        try await Self.withClient(backend) { client in
            var headers: HTTPFields = [:]
            if let contentType { headers[.contentType] = contentType }
            let answer = try await client.execute(uri: "/v1/regions", method: .post, headers: headers, body: ByteBuffer(string: Self.beaconBody))
            #expect(answer.status == status)
            if status == .unsupportedMediaType {
                let error = try Self.error(answer)
                #expect(error.code == "unsupported-media-type" && error.message.contains("Content-Type: application/json"), "\(error)")
                #expect(backend.state.withLock { $0.regions.map(\.identifier) } == ["park", "block"])
            }
            for path in ["/v1/handlers", "/v1/devices", "/v1/outputs"] where status == .unsupportedMediaType {
                let refused = try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: "{}"))
                #expect(refused.status == .unsupportedMediaType, "\(path)")
            }
        }
    }

    @Test func importingRegions() async throws {
        let backend = FakeBackend()
        try await Self.withClient(backend) { client in
            let created = try await client.execute(
                uri: "/v1/regions", method: .post, headers: Self.jsonType, body: ByteBuffer(string: Self.importBody))
            #expect(created.status == .created)
            #expect(
                String(buffer: created.body)
                    == "{\"imported\":2,\"inserted\":[\"school\",\"a b\"],\"replaced\":[],\"rejected\":[]}")
            #expect(backend.state.withLock { $0.regions.map(\.identifier) } == ["park", "block", "school", "a b"])

            let encoded = try await client.execute(uri: "/v1/regions/a%20b", method: .get)
            #expect(encoded.status == .ok)

            let duplicate = try await client.execute(
                uri: "/v1/regions", method: .post, headers: Self.jsonType, body: ByteBuffer(string: Self.importBody))
            #expect(duplicate.status == .conflict)
            let error = try Self.error(duplicate)
            #expect(error.code == "store.duplicate-identifier")
            #expect(error.object["identifiers"] as? [String] == ["school", "a b"])

            let replaced = try await client.execute(
                uri: "/v1/regions?replace=true", method: .post, headers: Self.jsonType, body: ByteBuffer(string: Self.importBody))
            #expect(replaced.status == .created)
            #expect((try Self.json(replaced.body)["replaced"] as? [String]) == ["school", "a b"])

            let byProperty = try await client.execute(
                uri: "/v1/regions?id-property=ref", method: .post, headers: Self.jsonType,
                body: ByteBuffer(
                    string:
                        #"{"type":"Feature","properties":{"ref":"R7","radius":5},"geometry":{"type":"Point","coordinates":[1,2]}}"#
                ))
            #expect(byProperty.status == .created)
            #expect((try Self.json(byProperty.body)["inserted"] as? [String]) == ["R7"])

            let badReplace = try await client.execute(uri: "/v1/regions?replace=maybe", method: .post, headers: Self.jsonType, body: ByteBuffer(string: "{}"))
            #expect(badReplace.status == .badRequest)
            #expect(try Self.error(badReplace).object["parameter"] as? String == "replace")
        }
    }

    @Test func malformedGeoJSONIs400WithLineAndColumn() async throws {
        try await Self.withClient { client in
            let body = "{\"type\":\"Feature\",\n \"properties\":{\"name\":\"x\"},\n \"geometry\":{\"type\":\"Point\",\"coordinates\":[4,52]}}"
            let response = try await client.execute(uri: "/v1/regions", method: .post, headers: Self.jsonType, body: ByteBuffer(string: body))
            #expect(response.status == .badRequest)
            let error = try Self.error(response)
            #expect(error.code == "geojson.missing-radius")
            let location = try #require(error.object["location"] as? [String: Any])
            #expect(location["file"] as? String == "request body")
            #expect(location["line"] as? Int == 2)
            #expect(location["column"] as? Int == 15)  // the properties object's `{`
            #expect(error.object["path"] as? String == "properties")

            let syntax = try await client.execute(uri: "/v1/regions", method: .post, headers: Self.jsonType, body: ByteBuffer(string: "{\n  \"type\": }"))
            #expect(syntax.status == .badRequest)
            let syntaxError = try Self.error(syntax)
            #expect(syntaxError.code == "geojson.json-syntax")
            #expect((syntaxError.object["location"] as? [String: Any])?["line"] as? Int == 2)
        }
    }

    @Test func invalidRegionsAre422WithReasons() async throws {
        let backend = FakeBackend()
        backend.state.withLock {
            $0.importError = StoreError(
                code: .invalidRegions, message: "1 region is invalid",
                rejected: [RejectedRegion(identifier: "a b", reason: "Self-intersection[0.5 0.5]")])
        }
        try await Self.withClient(backend) { client in
            let response = try await client.execute(uri: "/v1/regions", method: .post, headers: Self.jsonType, body: ByteBuffer(string: Self.importBody))
            #expect(response.status == .unprocessableContent)
            let error = try Self.error(response)
            #expect(error.code == "store.invalid-regions")
            let rejected = try #require(error.object["rejected"] as? [[String: String]])
            #expect(rejected == [["identifier": "a b", "reason": "Self-intersection[0.5 0.5]"]])
        }
    }

    @Test func bodyOverTheLimitIs413() async throws {
        try await Self.withClient(maximumBodySize: 64) { client in
            let response = try await client.execute(
                uri: "/v1/regions", method: .post, headers: Self.jsonType, body: ByteBuffer(string: Self.importBody))
            #expect(response.status == .contentTooLarge)
            #expect(try Self.error(response).code == "body-too-large")
        }
    }

    @Test func deleteAndState() async throws {
        let backend = FakeBackend()
        try await Self.withClient(backend) { client in
            let state = try await client.execute(uri: "/v1/regions/park/state", method: .get)
            #expect(state.status == .ok)
            #expect(String(buffer: state.body) == "{\"identifier\":\"park\",\"state\":\"inside\",\"since\":\"2024-05-01T12:00:30Z\"}")
            let unknown = try Self.json(try await client.execute(uri: "/v1/regions/block/state", method: .get).body)
            #expect(unknown["state"] as? String == "unknown")
            #expect(unknown["since"] is NSNull)

            let deleted = try await client.execute(uri: "/v1/regions/park", method: .delete)
            #expect(deleted.status == .noContent)
            #expect(deleted.body.readableBytes == 0)
            #expect(backend.state.withLock { $0.regions.map(\.identifier) } == ["block"])
            let again = try await client.execute(uri: "/v1/regions/park", method: .delete)
            #expect(again.status == .notFound)
            let noState = try await client.execute(uri: "/v1/regions/park/state", method: .get)
            #expect(noState.status == .notFound)
            #expect(try Self.error(noState).code == "no-region")
        }
    }

    @Test func metricsInPrometheusTextFormat() async throws {
        try await Self.withClient { client in
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = String(buffer: response.body)
            for line in [
                "# TYPE waymark_fixes_recorded_total counter", "waymark_fixes_recorded_total 3",
                "waymark_fixes_dropped_total 2", "waymark_events_recorded_total 1",
                "# TYPE waymark_source_connected gauge", "waymark_source_connected{kind=\"gpsd\"} 1",
                "waymark_regions 2", "waymark_uptime_seconds 12.5",
                "waymark_build_info{version=\"0.1.0-test\"} 1",
                "waymark_last_fix_timestamp_seconds 1714564840",
                "waymark_subscription_fixes_accepted_total{subscription=\"ride-log\"} 2",
                "waymark_subscription_fixes_dropped_total{subscription=\"ride-log\",reason=\"timeBackwards\"} 1",
                "waymark_subscription_events_total{subscription=\"ride-log\",kind=\"significantChange\"} 1",
                "# TYPE waymark_energy_joules_total counter",
                "waymark_energy_joules_total{radio=\"gnss\",profile=\"ublox-m8-usb\"} 41.85",
            ] {
                #expect(text.split(separator: "\n").contains(Substring(line)), "missing \(line)")
            }
            // A radio that is not accounted (no Bluetooth scan here) has no sample.
            #expect(!text.contains("radio=\"bluetooth\""))
            // Every sample has HELP and TYPE lines before it.
            let names = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.prefix(while: { $0 != " " && $0 != "{" }) }
            for name in names {
                #expect(text.contains("# HELP \(name) "))
                #expect(text.contains("# TYPE \(name) "))
            }
        }
    }

    @Test func unknownPathIs404AndWrongMethodIs405() async throws {
        try await Self.withClient { client in
            let unknown = try await client.execute(uri: "/v2/nothing", method: .get)
            #expect(unknown.status == .notFound)
            #expect(try Self.error(unknown).code == "not-found")

            let wrong = try await client.execute(uri: "/v1/status", method: .post)
            #expect(wrong.status == .methodNotAllowed)
            #expect(wrong.headers[.allow] == "GET")
            #expect(try Self.error(wrong).code == "method-not-allowed")

            let wrongOnRegion = try await client.execute(uri: "/v1/regions/park", method: .put)
            #expect(wrongOnRegion.status == .methodNotAllowed)
            #expect(wrongOnRegion.headers[.allow] == "GET, DELETE")
        }
    }

    @Test func tokenIsRequiredWhenConfigured() async throws {
        try await Self.withClient(token: "s3cret") { client in
            let missing = try await client.execute(uri: "/v1/status", method: .get)
            #expect(missing.status == .unauthorized)
            #expect(missing.headers[.wwwAuthenticate] == "Bearer")
            #expect(try Self.error(missing).code == "unauthorized")
            let wrong = try await client.execute(uri: "/v1/status", method: .get, headers: [.authorization: "Bearer s3cre"])
            #expect(wrong.status == .unauthorized)
            let right = try await client.execute(uri: "/v1/status", method: .get, headers: [.authorization: "Bearer s3cret"])
            #expect(right.status == .ok)
            // Liveness and the page's own files need none; the page's data does.
            let health = try await client.execute(uri: "/v1/health", method: .get)
            #expect(health.status == .ok && String(buffer: health.body).contains("\"tokenRequired\":true"))
            #expect(try await client.execute(uri: "/", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/web/app.js", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/v1/web", method: .get).status == .unauthorized)
            #expect(try await client.execute(uri: "/", method: .post).status == .unauthorized)
        }
    }
}
