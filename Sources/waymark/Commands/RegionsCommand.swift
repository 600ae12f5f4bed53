import ArgumentParser
import Foundation
import WaymarkAPI
import WaymarkDaemon
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions
import WaymarkStore

struct RegionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regions",
        abstract: "Manage regions: through the running daemon's API when one answers, else in the database.",
        subcommands: [Import.self, Add.self, AddBeacon.self, List.self, Remove.self, State.self, Generate.self])

    struct StoreOptions: ParsableArguments {
        @Option(name: .customLong("db"), help: "SpatiaLite database (default: the daemon's, $XDG_DATA_HOME/waymark/waymark.sqlite).")
        var database: String?

        @Option(help: "A running daemon's API socket: when it answers, changes go through it so it monitors them at once (default: $XDG_RUNTIME_DIR/waymark/api.sock; ignored with --db).")
        var socket: String?

        func open() throws -> WaymarkStore {
            let path = database ?? DefaultLocations.database(system: false)
            try PrivateFolder.create(folder(of: path))
            return try WaymarkStore(path: path, logger: CommandLogging.logger("waymark.store"))
        }

        /// The running daemon's API, unless --db names a database or no daemon answers. A socket
        /// served by another user is an error, not a reason to fall back to the store: someone
        /// may be impersonating the daemon (`SocketPeerRule`).
        func daemon() throws -> UnixSocketHTTPClient? {
            guard database == nil else { return nil }
            let client = UnixSocketHTTPClient(
                socketPath: socket ?? DefaultLocations.socket(system: false), timeout: .seconds(10),
                peerRule: socket == nil ? .ownUserOrRoot : .ownUserRootOrFolderOwner)
            do {
                return try client.request(method: "GET", path: "/v1/health").status == 200 ? client : nil
            } catch where error.code == .untrustedPeer {
                throw CommandError("refusing to use the daemon's socket: \(error.message)")
            } catch {
                return nil
            }
        }
    }

    /// Sends a request to the daemon; a non-2xx answer becomes an error with the daemon's message.
    static func call(_ client: UnixSocketHTTPClient, _ method: String, _ path: String, body: [UInt8]? = nil) throws -> String {
        let response = try client.request(method: method, path: path, body: body)
        let text = String(decoding: response.body, as: UTF8.self)
        guard (200..<300).contains(response.status) else { throw CommandError("the daemon answered \(response.status): \(text)") }
        return text
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import GeoJSON regions (Polygon, MultiPolygon, Point with properties.radius in metres).",
            discussion: """
                Every polygon is checked with SpatiaLite's ST_IsValid. By default one invalid region \
                fails the whole import and nothing is written; --skip-invalid imports the others and \
                lists the rejected ones on standard error.
                """)

        @Argument(help: "GeoJSON files or folders.")
        var paths: [String]

        @Option(name: .customLong("id-property"), help: "Feature property that names a region.")
        var idProperty: String?

        @Flag(name: .customLong("number-unnamed"), help: "Name features that have no identifier FILE#INDEX (e.g. ne_50m_urban_areas#17) instead of rejecting them.")
        var numberUnnamed = false

        @Flag(help: "Replace regions whose identifier is already stored (default: an error).")
        var replace = false

        @Flag(name: .customLong("skip-invalid"), help: "Import the valid regions and report the invalid ones.")
        var skipInvalid = false

        @OptionGroup var store: StoreOptions

        func run() throws {
            if !skipInvalid, !numberUnnamed, let client = try store.daemon() {
                // One request per file, so the daemon's errors name the file's line and column.
                for path in paths {
                    for file in try GeoJSONRegionLoader.regionFiles(at: path) {
                        var query = "?replace=\(replace)"
                        if let idProperty { query += "&id-property=" + (idProperty.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? idProperty) }
                        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
                        print(try RegionsCommand.call(client, "POST", "/v1/regions" + query, body: bytes))
                    }
                }
                return
            }
            let regions = try GeoJSONRegionLoader.load(
                paths: paths, idProperty: idProperty, unnamedFeatures: numberUnnamed ? .numberByIndex : .reject)
            let report = try store.open().importRegions(regions, replace: replace, skipInvalid: skipInvalid)
            for rejected in report.rejected { printError("rejected \(rejected)") }
            print("imported \(report.inserted.count) new and \(report.replaced.count) replaced regions; rejected \(report.rejected.count)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List stored regions, one JSON object per line (the objects GET /v1/regions lists).")

        @OptionGroup var store: StoreOptions

        func run() throws {
            if let client = try store.daemon() {
                let body = try RegionsCommand.call(client, "GET", "/v1/regions")
                for line in try Self.summaries(inAPIAnswer: body) { print(line) }
                return
            }
            for region in try store.open().regions() { print(region.summaryJSON) }
        }

        /// The objects of `{"regions":[…]}` as the daemon wrote them, so both paths print the same.
        static func summaries(inAPIAnswer body: String) throws -> [String] {
            let bytes = Array(body.utf8)
            guard let root = try? JSONParser.parse(bytes), case .array(let regions)? = root.member("regions")?.value else {
                throw CommandError("the daemon's answer to GET /v1/regions has no regions array: \(body.prefix(200))")
            }
            return regions.map { String(decoding: bytes[$0.start..<$0.end], as: UTF8.self) }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove stored regions by identifier.")

        @Argument(help: "Identifiers of the regions to remove.")
        var identifiers: [String]

        @OptionGroup var store: StoreOptions

        func run() throws {
            if let client = try store.daemon() {
                for identifier in identifiers {
                    let escaped = identifier.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? identifier
                    _ = try RegionsCommand.call(client, "DELETE", "/v1/regions/" + escaped)
                }
                return
            }
            let store = try store.open()
            var missing: [String] = []
            for identifier in identifiers where try !store.removeRegion(identifier: identifier) {
                missing.append(identifier)
            }
            guard missing.isEmpty else {
                throw CommandError("no such region: \(missing.joined(separator: ", "))")
            }
        }
    }
}
