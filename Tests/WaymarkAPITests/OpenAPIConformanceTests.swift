import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import WaymarkAPI
import WaymarkStore
import WaymarkTestSupport

/// The server against `docs/openapi.yaml`: every documented operation is exercised on a live
/// server over the fake daemon, success and error cases, and
/// `openapi_conformance.py` (Debian's python3-yaml and python3-jsonschema) checks that each
/// status and content type is documented and each JSON body validates against its schema.
@Suite struct OpenAPIConformanceTests {
    struct Exchange {
        var method: HTTPRequest.Method
        var template: String
        var uri: String
        var body: String? = nil
        var token: String? = nil
    }

    static let exchanges: [Exchange] = [
        .init(method: .get, template: "/v1/health", uri: "/v1/health"),
        .init(method: .get, template: "/v1/health", uri: "/v1/health", token: "wrong"),
        .init(method: .get, template: "/v1/status", uri: "/v1/status", token: "wrong"),
        .init(method: .get, template: "/v1/status", uri: "/v1/status"),
        .init(method: .get, template: "/v1/fixes/last", uri: "/v1/fixes/last"),
        .init(method: .get, template: "/v1/history", uri: "/v1/history"),
        .init(method: .get, template: "/v1/history", uri: "/v1/history?kind=gap&kind=event,fix&limit=3&from=2024-05-01T12:00:00Z"),
        .init(method: .get, template: "/v1/history", uri: "/v1/history?format=geojson"),
        .init(method: .get, template: "/v1/history", uri: "/v1/history?limit=-3"),
        .init(method: .get, template: "/v1/fixes", uri: "/v1/fixes?format=geojson"),
        .init(method: .get, template: "/v1/fixes", uri: "/v1/fixes?to=soon"),
        .init(method: .get, template: "/v1/history", uri: "/v1/history?device=local,phone"),
        .init(method: .get, template: "/v1/history", uri: "/v1/history?device=a/b"),
        .init(method: .get, template: "/v1/events", uri: "/v1/events"),
        .init(method: .get, template: "/v1/events", uri: "/v1/events?kind=fix"),
        .init(method: .get, template: "/v1/events/{id}/explain", uri: "/v1/events/1/explain"),
        .init(method: .get, template: "/v1/events/{id}/explain", uri: "/v1/events/1/explain?format=text"),
        .init(method: .get, template: "/v1/events/{id}/explain", uri: "/v1/events/2/explain"),
        .init(method: .get, template: "/v1/events/{id}/explain", uri: "/v1/events/x/explain"),
        .init(method: .get, template: "/v1/devices/{name}/disagreements", uri: "/v1/devices/phone/disagreements?from=2024-05-01T12:00:00Z&to=2024-05-02T12:00:00Z"),
        .init(method: .get, template: "/v1/devices/{name}/disagreements", uri: "/v1/devices/phone/disagreements?from=2024-05-01T12:00:00Z"),
        .init(method: .get, template: "/v1/power", uri: "/v1/power"),
        .init(method: .get, template: "/v1/power", uri: "/v1/power?by=handler&since=2024-05-01T12:30:00Z"),
        .init(method: .get, template: "/v1/power", uri: "/v1/power?by=hour"),
        .init(method: .get, template: "/v1/power", uri: "/v1/power?since=yesterday"),
        .init(method: .get, template: "/v1/regions", uri: "/v1/regions"),
        .init(method: .get, template: "/v1/regions", uri: "/v1/regions?format=geojson"),
        .init(method: .get, template: "/v1/regions", uri: "/v1/regions?format=kml"),
        .init(method: .get, template: "/v1/export", uri: "/v1/export?format=stats&device=phone&from=2024-05-01T12:00:00Z"),
        .init(method: .get, template: "/v1/export", uri: "/v1/export?format=doc"),
        .init(method: .get, template: "/v1/export", uri: "/v1/export?format=gpx&from=2024-05-02T00:00:00Z&to=2024-05-01T00:00:00Z"),
        .init(method: .get, template: "/v1/history/days", uri: "/v1/history/days?device=local&tz=Europe/Berlin"),
        .init(method: .get, template: "/v1/history/days", uri: "/v1/history/days?tz=Mars/Olympus_Mons"),
        .init(method: .get, template: "/v1/history/days", uri: "/v1/history/days?device=nobody"),
        .init(method: .get, template: "/v1/timeline", uri: "/v1/timeline?device=local&day=2026-05-02"),
        .init(method: .get, template: "/v1/timeline", uri: "/v1/timeline?from=2024-05-01T12:00:00Z&to=2024-05-01T11:00:00Z"),
        .init(method: .get, template: "/v1/timeline", uri: "/v1/timeline?device=nobody&day=2024-05-01"),
        .init(method: .post, template: "/v1/imports", uri: "/v1/imports?device=phone&name=ride.gpx", body: Self.gpx),
        .init(method: .get, template: "/v1/imports/{id}", uri: "/v1/imports/1"),
        .init(method: .get, template: "/v1/imports", uri: "/v1/imports"),
        .init(method: .get, template: "/v1/imports", uri: "/v1/imports?device=phone&limit=3"),
        .init(method: .get, template: "/v1/imports/{id}", uri: "/v1/imports/99"),
        .init(method: .get, template: "/v1/imports/{id}", uri: "/v1/imports/first"),
        .init(method: .post, template: "/v1/imports", uri: "/v1/imports?device=phone", body: "shopping: milk, eggs"),
        .init(method: .post, template: "/v1/imports", uri: "/v1/imports?device=phone", body: "PK\u{03}\u{04}" + String(repeating: "x", count: 40)),
        .init(method: .post, template: "/v1/imports", uri: "/v1/imports", body: Self.gpx),
        .init(method: .post, template: "/v1/imports", uri: "/v1/imports?device=phone"),
        .init(method: .post, template: "/v1/imports", uri: "/v1/imports?device=phone", body: String(repeating: " ", count: 9000)),
        .init(method: .get, template: "/v1/web", uri: "/v1/web"),
        .init(method: .get, template: "/v1/tiles/{z}/{x}/{y}", uri: "/v1/tiles/1/0/0"),
        .init(method: .get, template: "/", uri: "/"),
        .init(method: .get, template: "/web/{file}", uri: "/web/app.js"),
        .init(method: .get, template: "/web/{file}", uri: "/web/app.css"),
        .init(method: .get, template: "/web/{file}", uri: "/web/nothing.js"),
        .init(method: .get, template: "/web/leaflet/{path}", uri: "/web/leaflet/missing.js"),
        .init(method: .get, template: "/web/leaflet/{path}", uri: "/web/leaflet/leaflet.css"),
        .init(method: .post, template: "/v1/regions", uri: "/v1/regions", body: APIRouterTests.importBody),
        .init(method: .post, template: "/v1/regions", uri: "/v1/regions", body: APIRouterTests.importBody),
        .init(method: .post, template: "/v1/regions", uri: "/v1/regions?replace=true", body: APIRouterTests.importBody),
        .init(method: .post, template: "/v1/regions", uri: "/v1/regions", body: "{\"type\":\"Feature\",\n\"geometry\":null}"),
        .init(method: .post, template: "/v1/regions", uri: "/v1/regions", body: String(repeating: " ", count: 5000)),
        .init(method: .post, template: "/v1/regions", uri: "/v1/regions", body: APIRouterTests.beaconBody),
        .init(
            method: .post, template: "/v1/regions", uri: "/v1/regions",
            body: #"{"type":"Feature","id":"x","geometry":null,"properties":{"beacon":{"uuid":"E2C56DB5","major":1}}}"#),
        .init(method: .get, template: "/v1/regions/{id}", uri: "/v1/regions/park"),
        .init(method: .get, template: "/v1/regions/{id}", uri: "/v1/regions/bike-tag"),
        .init(method: .get, template: "/v1/regions/{id}", uri: "/v1/regions/block"),
        .init(method: .get, template: "/v1/regions/{id}", uri: "/v1/regions/a%20b"),
        .init(method: .get, template: "/v1/regions/{id}", uri: "/v1/regions/missing"),
        .init(method: .get, template: "/v1/regions/{id}/state", uri: "/v1/regions/park/state"),
        .init(method: .get, template: "/v1/regions/{id}/state", uri: "/v1/regions/block/state"),
        .init(method: .get, template: "/v1/regions/{id}/state", uri: "/v1/regions/missing/state"),
        .init(method: .get, template: "/v1/regions/{id}/state", uri: "/v1/regions/park/state?device=local"),
        .init(method: .get, template: "/v1/regions/{id}/state", uri: "/v1/regions/park/state?device=ghost"),
        .init(method: .get, template: "/v1/fixes/last", uri: "/v1/fixes/last?device=ghost"),
        .init(method: .delete, template: "/v1/regions/{id}", uri: "/v1/regions/school"),
        .init(method: .delete, template: "/v1/regions/{id}", uri: "/v1/regions/school"),
        .init(method: .get, template: "/v1/handlers", uri: "/v1/handlers"),
        .init(method: .post, template: "/v1/handlers/reload", uri: "/v1/handlers/reload"),
        .init(method: .post, template: "/v1/handlers", uri: "/v1/handlers", body: #"{"name":"logger","executable":"/bin/true"}"#),
        .init(method: .post, template: "/v1/handlers", uri: "/v1/handlers", body: #"{"name":"logger"}"#),
        .init(method: .delete, template: "/v1/handlers/{name}", uri: "/v1/handlers/logger"),
        .init(method: .delete, template: "/v1/handlers/{name}", uri: "/v1/handlers/nobody"),
        .init(method: .post, template: "/v1/handlers/{name}/quit", uri: "/v1/handlers/logger/quit"),
        .init(method: .post, template: "/v1/handlers/{name}/quit", uri: "/v1/handlers/nobody/quit"),
        .init(method: .post, template: "/v1/handlers/{name}/launch", uri: "/v1/handlers/logger/launch"),
        .init(method: .post, template: "/v1/handlers/{name}/background", uri: "/v1/handlers/logger/background"),
        .init(method: .post, template: "/v1/handlers/{name}/background", uri: "/v1/handlers/nobody/background"),
        // The fake takes two pushes for logger, then rate-limits it.
        .init(method: .post, template: "/v1/handlers/{name}/notify", uri: "/v1/handlers/logger/notify", body: #"{"sync":true}"#),
        .init(method: .post, template: "/v1/handlers/{name}/notify", uri: "/v1/handlers/logger/notify", body: "42"),
        .init(method: .post, template: "/v1/handlers/{name}/notify", uri: "/v1/handlers/logger/notify", body: "{}"),
        .init(method: .post, template: "/v1/handlers/{name}/notify", uri: "/v1/handlers/logger/notify", body: "{not json"),
        .init(method: .post, template: "/v1/handlers/{name}/notify", uri: "/v1/handlers/logger/notify", body: "[" + String(repeating: "1,", count: 2100) + "1]"),
        .init(method: .post, template: "/v1/handlers/{name}/notify", uri: "/v1/handlers/nobody/notify", body: "{}"),
        .init(method: .get, template: "/v1/devices", uri: "/v1/devices"),
        .init(method: .post, template: "/v1/outputs", uri: "/v1/outputs", body: #"{"name":"hub","url":"https://hub.example/w","kinds":["region","visit"]}"#),
        .init(method: .post, template: "/v1/outputs", uri: "/v1/outputs", body: #"{"name":"hub","url":"https://hub.example/w"}"#),
        .init(method: .post, template: "/v1/outputs", uri: "/v1/outputs", body: #"{"name":"x","url":"ftp://hub.example/w"}"#),
        .init(method: .post, template: "/v1/outputs", uri: "/v1/outputs", body: #"{"name":"x","url":"https://h/","kinds":["nope"]}"#),
        .init(method: .get, template: "/v1/outputs", uri: "/v1/outputs"),
        .init(method: .post, template: "/v1/outputs/{name}/retry", uri: "/v1/outputs/hub/retry"),
        .init(method: .post, template: "/v1/outputs/{name}/test", uri: "/v1/outputs/hub/test"),
        .init(method: .post, template: "/v1/outputs/{name}/test", uri: "/v1/outputs/nobody/test"),
        .init(method: .delete, template: "/v1/outputs/{name}", uri: "/v1/outputs/hub"),
        .init(method: .delete, template: "/v1/outputs/{name}", uri: "/v1/outputs/hub"),
        .init(method: .post, template: "/v1/devices", uri: "/v1/devices", body: #"{"name":"phone","user":"alice"}"#),
        .init(method: .post, template: "/v1/devices", uri: "/v1/devices", body: #"{"name":"phone"}"#),
        .init(method: .post, template: "/v1/devices", uri: "/v1/devices", body: #"{"name":"a/b"}"#),
        .init(method: .post, template: "/v1/devices", uri: "/v1/devices", body: #"{"user":"alice"}"#),
        .init(method: .get, template: "/v1/devices", uri: "/v1/devices"),
        .init(method: .post, template: "/v1/devices/{name}/secret", uri: "/v1/devices/phone/secret"),
        .init(method: .post, template: "/v1/devices/{name}/secret", uri: "/v1/devices/local/secret"),
        .init(method: .post, template: "/v1/devices/{name}/secret", uri: "/v1/devices/nobody/secret"),
        .init(method: .delete, template: "/v1/devices/{name}", uri: "/v1/devices/phone"),
        .init(method: .delete, template: "/v1/devices/{name}", uri: "/v1/devices/phone"),
        .init(method: .delete, template: "/v1/devices/{name}", uri: "/v1/devices/local"),
        .init(method: .get, template: "/v1/stream", uri: "/v1/stream"),
        .init(method: .get, template: "/v1/stream", uri: "/v1/stream?device=a/b"),
        .init(method: .get, template: "/metrics", uri: "/metrics"),
    ]

    /// A GPX track of two timed points, for `POST /v1/imports`.
    static let gpx = """
        <?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt lat="52.0" lon="4.3"><time>2024-05-01T12:00:00Z</time></trkpt>
        <trkpt lat="52.001" lon="4.301"><time>2024-05-01T12:00:10Z</time></trkpt>
        </trkseg></trk></gpx>
        """

    @Test func serverConformsToTheDocument() async throws {
        let backend = FakeBackend(regions: FakeBackend.sampleRegions + [FakeBackend.beaconRegion])
        backend.state.withLock {
            $0.status.beaconSource = DaemonStatus.BeaconSource(
                kind: .bluetooth, description: "bluetooth", scanning: false,
                lastError: "no Bluetooth adapter: /sys/class/bluetooth is empty", scanInterval: 0.1, scanWindow: 0.05,
                advertisements: 3, ignored: ["otherManufacturer": 2])
        }
        backend.state.withLock { $0.scriptedLive = [FakeBackend.fix(70, latitude: 1, longitude: 2)] }
        // A day of stays and a trip for `GET /v1/timeline`.
        _ = try backend.store.recordFixes(TimelineRouteTests.noisyDay(), source: "conformance")
        // Imports into a real store beside their uploads, as the daemon's.
        let directory = try TemporaryDirectory()
        let logger = Logger(label: "conformance", factory: { _ in SwiftLogNoOpLogHandler() })
        let store = try WaymarkStore(path: directory.path("waymark.sqlite"), logger: logger)
        backend.state.withLock { $0.imports = HistoryImports(store: store, uploads: directory.path("imports"), logger: logger) }
        var configuration = APIServer.Configuration(socketPath: "/unused", maximumBodySize: 4096)
        configuration.maximumUploadSize = 8192
        let open = Application(router: APIServer.makeRouter(backend: backend, configuration: configuration))
        let guarded = Application(
            router: APIServer.makeRouter(backend: backend, configuration: configuration, token: "right"))
        var records: [[String: Any]] = []
        for exchange in Self.exchanges {
            let app = exchange.token == nil ? open : guarded
            let response = try await app.test(.live) { client in
                var headers: HTTPFields = [:]
                if let token = exchange.token { headers[.authorization] = "Bearer \(token)" }
                if exchange.body != nil { headers[.contentType] = "application/json" }
                return try await client.execute(
                    uri: exchange.uri, method: exchange.method, headers: headers,
                    body: exchange.body.map { ByteBuffer(string: $0) })
            }
            records.append([
                "method": exchange.method.rawValue, "template": exchange.template, "uri": exchange.uri,
                "status": Int(response.status.code), "contentType": response.headers[.contentType] ?? "",
                "body": String(buffer: response.body),
            ])
        }
        // The cases cover the error statuses they are meant to.
        let statuses = Set(records.compactMap { $0["status"] as? Int })
        #expect(statuses.isSuperset(of: [200, 201, 202, 204, 400, 401, 404, 409, 413, 415, 422]))

        let file = directory.path("exchanges.json")
        try JSONSerialization.data(withJSONObject: records, options: [.prettyPrinted]).write(to: URL(fileURLWithPath: file))
        let script = ProjectPaths.repositoryRoot.appendingPathComponent("docs/openapi_conformance.py").path
        let spec = ProjectPaths.repositoryRoot.appendingPathComponent("docs/openapi.yaml").path
        let result = try await runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [script, spec, file])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}
