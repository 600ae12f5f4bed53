import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import WaymarkAPI
import WaymarkStore
import WaymarkTestSupport

/// `POST /v1/imports` and `GET /v1/imports[/{id}]` (docs/import/api.md) over a real
/// SpatiaLite file and real uploads: the fixes land in the device's history, once.
@Suite struct ImportRouteTests {
    /// A store in a temporary folder, with imports uploading beside it as the daemon's do.
    struct Setup {
        let directory: TemporaryDirectory
        let store: WaymarkStore
        let imports: HistoryImports
        let backend: FakeBackend

        init() throws {
            directory = try TemporaryDirectory()
            let logger = Logger(label: "import-test", factory: { _ in SwiftLogNoOpLogHandler() })
            store = try WaymarkStore(path: directory.path("waymark.sqlite"), logger: logger)
            imports = HistoryImports(store: store, uploads: directory.path("imports"), logger: logger)
            backend = FakeBackend()
            backend.state.withLock { [imports] in $0.imports = imports }
        }

        /// Files left in the upload folder.
        var uploadsLeft: [String] { (try? FileManager.default.contentsOfDirectory(atPath: imports.uploads)) ?? [] }

        func fixes(of device: String) throws -> Int {
            var count = 0
            try store.history(HistoryQuery(kinds: [.fix], devices: [device])) { _ in count += 1 }
            return count
        }

        func withClient(maximumUploadSize: Int64 = 4 << 30, _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
            var configuration = APIServer.Configuration(socketPath: "/unused")
            configuration.maximumUploadSize = maximumUploadSize
            try await Application(router: APIServer.makeRouter(backend: backend, configuration: configuration)).test(.live, body)
        }
    }

    static let gpx = ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx")
    /// The track's points, each with a time.
    static let gpxPoints = 2974

    static func upload(_ client: any TestClientProtocol, _ query: String, _ bytes: [UInt8]) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/imports?" + query, method: .post, headers: [.contentType: "application/octet-stream"], body: ByteBuffer(bytes: bytes))
    }

    /// Polls `GET /v1/imports/{id}` until the import ends (at most 60 s).
    static func finished(_ client: any TestClientProtocol, _ id: Int) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let response = try await client.execute(uri: "/v1/imports/\(id)", method: .get)
            #expect(response.status == .ok)
            let object = try APIRouterTests.json(response.body)
            if object["state"] as? String == "done" || object["state"] as? String == "failed", object["running"] as? Bool == false {
                return object
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("import \(id) did not end within 60 s")
        return [:]
    }

    static func started(_ response: TestResponse) throws -> Int {
        #expect(response.status == .accepted, "\(String(buffer: response.body))")
        let object = try APIRouterTests.json(response.body)
        let id = try #require(object["id"] as? Int)
        #expect(object["status"] as? String == "/v1/imports/\(id)")
        #expect(response.headers[.location] == "/v1/imports/\(id)")
        let progress = try #require(object["progress"] as? [String: Any])
        #expect(progress["import"] as? Int == id)
        return id
    }

    @Test func anUploadedGPXLandsInTheDevicesHistoryOnce() async throws {
        let setup = try Setup()
        let bytes = Array(try Data(contentsOf: Self.gpx))
        try await setup.withClient { client in
            let id = try Self.started(try await Self.upload(client, "device=bike&name=lakeside-ride.gpx", bytes))
            let done = try await Self.finished(client, id)
            #expect(done["state"] as? String == "done")
            #expect(done["device"] as? String == "bike")
            #expect(done["added"] as? Int == Self.gpxPoints)
            #expect(done["present"] as? Int == 0)
            #expect(done["sources"] as? [String] == ["lakeside-ride.gpx"])
            #expect(done["progress"] is NSNull)
            let files = try #require(done["files"] as? [[String: Any]])
            #expect(files.count == 1)
            #expect(files.first?["name"] as? String == "lakeside-ride.gpx")
            #expect(files.first?["size"] as? Int == bytes.count)
            #expect(files.first?["state"] as? String == "done")
            #expect(try setup.fixes(of: "bike") == Self.gpxPoints)
            #expect(setup.uploadsLeft.isEmpty, "the upload is deleted when its import ends: \(setup.uploadsLeft)")

            // The same bytes again: nothing added, the file known by its digest.
            let again = try Self.started(try await Self.upload(client, "device=bike&name=copy.gpx", bytes))
            #expect(again != id)
            let second = try await Self.finished(client, again)
            #expect(second["state"] as? String == "done")
            #expect(second["added"] as? Int == 0)
            #expect(second["present"] as? Int == Self.gpxPoints)
            #expect(second["alreadyImported"] as? [String] == ["copy.gpx"])
            #expect(try setup.fixes(of: "bike") == Self.gpxPoints)

            let list = try APIRouterTests.json(try await client.execute(uri: "/v1/imports?device=bike", method: .get).body)
            let imports = try #require(list["imports"] as? [[String: Any]])
            #expect(imports.compactMap { $0["id"] as? Int } == [again, id], "newest first")
            let other = try APIRouterTests.json(try await client.execute(uri: "/v1/imports?device=car", method: .get).body)
            #expect((other["imports"] as? [Any])?.isEmpty == true)
        }
    }

    /// The GPX in a zip archive, made by Info-ZIP's `zip`.
    static func zipped(in directory: TemporaryDirectory) async throws -> [UInt8] {
        let zip = directory.path("ride.zip")
        let result = try await runProcess(URL(fileURLWithPath: "/usr/bin/zip"), ["-j", "-q", zip, gpx.path])
        try #require(result.status == 0, "\(result.stderr)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: zip)))
    }

    /// SHA-256 of a file, by coreutils' `sha256sum`.
    static func sha256(_ path: String) async throws -> String {
        let result = try await runProcess(URL(fileURLWithPath: "/usr/bin/sha256sum"), [path])
        return String(result.stdout.prefix(64))
    }

    @Test func anInterruptedUploadImportIsResumedByTheSameBytes() async throws {
        let setup = try Setup()
        // What a daemon stopped mid-import leaves: the import and its file begun, under the
        // upload's path, fingerprinted by the device and the file's digest.
        let digest = try await Self.sha256(Self.gpx.path)
        let fingerprint = try await Self.sha256(try setup.directory.write("fingerprint", "bike\n" + digest))
        let path = setup.imports.uploads + "/device-bike/lakeside-ride.gpx"
        let size = Int64(try Data(contentsOf: Self.gpx).count)
        let (interrupted, _) = try setup.store.beginImport(
            device: "bike", sources: [path], fingerprint: fingerprint, deliver: false, bytesTotal: size, at: .init(secondsSince1970: 1_700_000_000))
        try setup.store.beginImportFile(interrupted.id, name: path, digest: digest, size: size)
        try await setup.withClient { client in
            let before = try APIRouterTests.json(try await client.execute(uri: "/v1/imports/\(interrupted.id)", method: .get).body)
            #expect(before["state"] as? String == "reading")
            #expect(before["running"] as? Bool == false)

            let id = try Self.started(try await Self.upload(client, "device=bike&name=lakeside-ride.gpx", Array(try Data(contentsOf: Self.gpx))))
            #expect(Int64(id) == interrupted.id, "the same bytes take up the interrupted import")
            let done = try await Self.finished(client, id)
            #expect(done["state"] as? String == "done")
            #expect(done["added"] as? Int == Self.gpxPoints)
            let files = try #require(done["files"] as? [[String: Any]])
            #expect(files.count == 1, "the file's row is taken up, not doubled: \(files)")
            #expect(files.first?["state"] as? String == "done")
            #expect(try setup.fixes(of: "bike") == Self.gpxPoints)
        }
    }

    @Test func uploadsLeftByAStoppedDaemonGoAtStartAndNothingElseDoes() throws {
        let directory = try TemporaryDirectory()
        let logger = Logger(label: "import-test", factory: { _ in SwiftLogNoOpLogHandler() })
        let store = try WaymarkStore(path: directory.path("waymark.sqlite"), logger: logger)
        let uploads = directory.path("imports")
        try FileManager.default.createDirectory(atPath: uploads + "/device-bike", withIntermediateDirectories: true)
        _ = try directory.write("imports/device-bike/ride.gpx", "<gpx/>")
        _ = try directory.write("imports/takeout.zip", "mine")
        _ = HistoryImports(store: store, uploads: uploads, logger: logger)
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads) == ["takeout.zip"])
    }

    @Test func aZipIsReadByItsContent() async throws {
        let setup = try Setup()
        let bytes = try await Self.zipped(in: setup.directory)
        try await setup.withClient { client in
            // No name: the content decides.
            let id = try Self.started(try await Self.upload(client, "device=walker", bytes))
            let done = try await Self.finished(client, id)
            #expect(done["state"] as? String == "done")
            #expect(done["added"] as? Int == Self.gpxPoints)
            #expect(try setup.fixes(of: "walker") == Self.gpxPoints)
            #expect(setup.uploadsLeft.isEmpty)
        }
    }

    @Test func anUnknownFileIsRefusedWithItsReasonAndNothingIsWritten() async throws {
        let setup = try Setup()
        try await setup.withClient { client in
            let response = try await Self.upload(client, "device=bike&name=notes.txt", Array("shopping: milk, eggs\nbread\n".utf8))
            #expect(response.status == .unsupportedMediaType)
            let error = try APIRouterTests.error(response)
            #expect(error.code == "unknown-format")
            #expect(error.message.hasPrefix("notes.txt: "), "\(error.message)")
            #expect(!error.message.contains(setup.imports.uploads), "the upload's path stays private: \(error.message)")
            #expect(error.object["file"] as? String == "notes.txt")

            let list = try APIRouterTests.json(try await client.execute(uri: "/v1/imports", method: .get).body)
            #expect((list["imports"] as? [Any])?.isEmpty == true)
            #expect(try setup.store.importRecords().isEmpty)
            #expect(try setup.fixes(of: "bike") == 0)
            #expect(setup.uploadsLeft.isEmpty)
        }
    }

    @Test func aZipCutShortIsRefusedAsAnArchive() async throws {
        let setup = try Setup()
        let bytes = try await Self.zipped(in: setup.directory)
        try await setup.withClient { client in
            let response = try await Self.upload(client, "device=bike&name=ride.zip", Array(bytes.prefix(bytes.count / 2)))
            #expect(response.status == .unprocessableContent, "\(String(buffer: response.body))")
            let error = try APIRouterTests.error(response)
            #expect(error.code == "archive")
            #expect(error.message.hasPrefix("ride.zip"), "\(error.message)")
            #expect(try setup.store.importRecords().isEmpty)
            #expect(setup.uploadsLeft.isEmpty)
        }
    }

    @Test func aSecondImportForTheSameDeviceWaitsForTheFirst() async throws {
        let setup = try Setup()
        let running = try setup.imports.reserve(device: "bike")
        try await setup.withClient { client in
            let refused = try await Self.upload(client, "device=bike", Array(try Data(contentsOf: Self.gpx)))
            #expect(refused.status == .conflict)
            #expect(try APIRouterTests.error(refused).code == "import-running")
            setup.imports.release(running)
            let id = try Self.started(try await Self.upload(client, "device=bike", Array(try Data(contentsOf: Self.gpx))))
            #expect(try await Self.finished(client, id)["state"] as? String == "done")
        }
    }

    @Test(arguments: [
        ("name=a.gpx", "device"), ("device=a/b", "device"), ("device=bike&deliver=maybe", "deliver"),
        ("device=bike&colour=red", "colour"), ("device=bike&name=../x", "name"), ("device=bike&columns=colour=red", "columns"), ("device=bike&columns=", "columns"),
    ])
    func badParametersAreRefusedByName(query: String, parameter: String) async throws {
        let setup = try Setup()
        try await setup.withClient { client in
            let response = try await Self.upload(client, query, Array(try Data(contentsOf: Self.gpx)))
            #expect(response.status == .badRequest, "\(String(buffer: response.body))")
            let error = try APIRouterTests.error(response)
            #expect(error.code == "invalid-parameter")
            #expect(error.object["parameter"] as? String == parameter)
            #expect(try setup.store.importRecords().isEmpty)
            #expect(setup.uploadsLeft.isEmpty)
        }
    }

    @Test func anEmptyOrOversizedBodyIsRefused() async throws {
        let setup = try Setup()
        try await setup.withClient(maximumUploadSize: 1000) { client in
            let empty = try await Self.upload(client, "device=bike", [])
            #expect(empty.status == .badRequest)
            #expect(try APIRouterTests.error(empty).code == "empty-body")

            let large = try await Self.upload(client, "device=bike", Array(try Data(contentsOf: Self.gpx)))
            #expect(large.status == .contentTooLarge)
            let error = try APIRouterTests.error(large)
            #expect(error.code == "body-too-large")
            #expect(error.message.contains("1000 bytes"))
            #expect(try setup.store.importRecords().isEmpty)
            #expect(setup.uploadsLeft.isEmpty)
        }
    }

    @Test func unknownAndMalformedIdsAreRefused() async throws {
        let setup = try Setup()
        try await setup.withClient { client in
            let unknown = try await client.execute(uri: "/v1/imports/41", method: .get)
            #expect(unknown.status == .notFound)
            #expect(try APIRouterTests.error(unknown).code == "no-import")
            let malformed = try await client.execute(uri: "/v1/imports/forty", method: .get)
            #expect(malformed.status == .badRequest)
            #expect(try APIRouterTests.error(malformed).code == "invalid-identifier")
            let delete = try await client.execute(uri: "/v1/imports/41", method: .delete)
            #expect(delete.status == .methodNotAllowed)
        }
    }

    @Test func aBackendWithoutImportsAnswers501BeforeReadingTheBody() async throws {
        try await APIRouterTests.withClient { client in
            let response = try await Self.upload(client, "device=bike", Array("<gpx/>".utf8))
            #expect(response.status == .notImplemented)
            #expect(try APIRouterTests.error(response).code == "not-in-fleet")
            let list = try await client.execute(uri: "/v1/imports", method: .get)
            #expect(list.status == .notImplemented)
        }
    }
}
