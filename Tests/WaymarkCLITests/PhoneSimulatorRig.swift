import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// A real daemon with one phone (`phone` of user `alice`) and a set of regions, and `waymark
/// simulate phone` playing a track against it as the OwnTracks app would, over HTTP or through a
/// real mosquitto (issue 43's end-to-end tests).
struct PhoneSimulatorRig {
    let directory: TemporaryDirectory
    let db: String
    let port: Int
    let secretFile: String
    let brokerPort: Int?
    let daemon: BackgroundProcess

    /// Starts mosquitto (when `mqtt`) and a daemon with `regions` (a GeoJSON file) and
    /// `devices.power_policy: policy`, then runs `body`; both are stopped afterwards.
    static func with<T>(
        regions: String, policy: String, mqtt: Bool = false, _ body: (PhoneSimulatorRig) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        let imported = try await runWaymark(["regions", "import", regions, "--db", db])
        try #require(imported.status == 0, "\(imported.stderr)")
        let added = try await runWaymark(["devices", "add", "phone", "--user", "alice", "--db", db])
        let secret = try #require(DevicesCommandTests.secret(in: added.stdout), "\(added.stdout)\(added.stderr)")
        let secretFile = try directory.write("phone.secret", secret + "\n")
        let port = try freeLoopbackPort()
        let configuration = try directory.write(
            "waymark.yaml", "devices:\n  listen: 127.0.0.1:\(port)\n  power_policy: \(policy)\n")
        guard mqtt else {
            return try await run(directory, db, port, secretFile, configuration, brokerPort: nil, body)
        }
        let brokerPort = try freeLoopbackPort()
        let brokerConfiguration = try directory.write(
            "mosquitto.conf", "listener \(brokerPort) 127.0.0.1\nallow_anonymous true\npersistence false\n")
        let broker = try BackgroundProcess(URL(fileURLWithPath: "/usr/sbin/mosquitto"), ["-c", brokerConfiguration])
        return try await broker.whileRunning {
            let up = try await BackgroundProcess.waitUntil(timeout: 20) { loopbackAccepts(port: brokerPort) }
            try #require(up, "mosquitto did not start: \(broker.stderr)")
            return try await run(directory, db, port, secretFile, configuration, brokerPort: brokerPort, body)
        }
    }

    private static func run<T>(
        _ directory: TemporaryDirectory, _ db: String, _ port: Int, _ secretFile: String, _ configuration: String,
        brokerPort: Int?, _ body: (PhoneSimulatorRig) async throws -> T
    ) async throws -> T {
        let daemon = try BackgroundProcess(
            ProjectPaths.waymarkExecutable,
            ["serve", "--config", configuration, "--gpsd", "127.0.0.1:9", "--db", db, "--socket", directory.path("api.sock")]
                + (brokerPort.map { ["--mqtt", "127.0.0.1:\($0)"] } ?? []),
            currentDirectory: ProjectPaths.repositoryRoot)
        return try await daemon.whileRunning {
            let ready = try await BackgroundProcess.waitUntil(timeout: 30) {
                loopbackAccepts(port: port) && (brokerPort == nil || daemon.stderr.contains("MQTT connected"))
            }
            try #require(ready, "the daemon did not start: \(daemon.stderr.suffix(2000))")
            let rig = PhoneSimulatorRig(directory: directory, db: db, port: port, secretFile: secretFile, brokerPort: brokerPort, daemon: daemon)
            return try await body(rig)
        }
    }

    /// `waymark simulate phone TRACK` against this daemon (over MQTT when the rig has a broker);
    /// its JSON summary.
    func simulate(_ track: String, mode: String, _ extra: [String] = []) async throws -> [String: Any] {
        var arguments = ["simulate", "phone", track, "--url", "http://127.0.0.1:\(port)", "--device", "phone",
                         "--secret-file", secretFile, "--mode", mode, "--seed", "1", "--json"]
        if let brokerPort { arguments += ["--mqtt", "127.0.0.1:\(brokerPort)", "--user", "alice"] }
        let result = try await runWaymark(arguments + extra)
        try #require(result.status == 0, "simulate phone failed (\(result.status)): \(result.stderr.suffix(2000))\n\(daemon.stderr.suffix(2000))")
        let summary = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(summary, "not a JSON object: \(result.stdout)")
    }

    /// The phone's region events the daemon recorded, as (region, transition) in time order.
    func crossings() async throws -> [Crossing] {
        try await runWaymark(["history", "--db", db, "--device", "phone", "--kind", "event"]).stdoutLines.compactMap { line in
            guard let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], event["kind"] as? String == "region",
                let region = event["region"] as? String, let transition = event["transition"] as? String
            else { return nil }
            return Crossing(region: region, transition: transition)
        }
    }

    /// How many fixes the daemon recorded for the phone.
    func fixCount() async throws -> Int {
        try await runWaymark(["history", "--db", db, "--device", "phone", "--kind", "fix"]).stdoutLines.count
    }

    /// `waymark devices list` as printed, asking the running daemon (only it knows the modes).
    func devicesList() async throws -> String {
        let result = try await runWaymark(["devices", "list", "--socket", directory.path("api.sock")])
        return result.stdout + result.stderr
    }

    /// GET /v1/status on the daemon's API socket.
    func status() async throws -> String {
        try await runProcess(
            URL(fileURLWithPath: "/usr/bin/curl"), ["--silent", "--unix-socket", directory.path("api.sock"), "http://localhost/v1/status"]
        ).stdout
    }

    /// `waymark power --device phone --json` from the running daemon.
    func phoneEnergy() async throws -> String {
        let result = try await runWaymark(["power", "--device", "phone", "--json", "--socket", directory.path("api.sock")])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    struct Crossing: Equatable, CustomStringConvertible {
        let region: String
        let transition: String
        var description: String { "\(transition) \(region)" }
    }

    /// The crossings of `reference` that `other` also has, matched in order per region and direction.
    static func matched(_ reference: [Crossing], in other: [Crossing]) -> [Crossing] {
        var pending = other
        return reference.filter { crossing in
            guard let index = pending.firstIndex(of: crossing) else { return false }
            pending.remove(at: index)
            return true
        }
    }

    /// The first of `keys` present in `summary` (dotted for nested objects), as a number.
    static func number(_ summary: [String: Any], _ keys: String...) -> Double? {
        for key in keys {
            var value: Any? = summary
            for part in key.split(separator: ".") { value = (value as? [String: Any])?[String(part)] }
            if let number = value as? NSNumber { return number.doubleValue }
        }
        return nil
    }
}

/// Regions and tracks the end-to-end tests make.
enum PhoneTestData {
    /// The repository's sample ride (49 minutes, 12 km).
    static let ride = ProjectPaths.repositoryRoot.appendingPathComponent("Tracks/lakeside-ride.gpx").path

    /// `waymark regions generate --along TRACK …` written into `directory`.
    static func regions(along track: String, in directory: TemporaryDirectory, name: String, _ options: [String]) async throws -> String {
        let path = directory.path(name)
        let result = try await runWaymark(["regions", "generate", "--along", track, "-o", path] + options)
        try #require(result.status == 0, "\(result.stderr)")
        return path
    }

    /// `along` (a GeoJSON file of regions) with `count` more scattered uniformly over a square of
    /// `halfSide` metres each way around its first region: circles of 50–400 m and squares of
    /// the same half-width, alternately, as a user's large region set (shops, stops, sites) is
    /// spread over a country rather than lined up along one ride. Seeded.
    static func crowd(along: String, count: Int, halfSide: Double = 30_000, seed: UInt64 = 11, in directory: TemporaryDirectory) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: along))
        let collection = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var features = try #require(collection["features"] as? [[String: Any]])
        let geometry = try #require(features.first?["geometry"] as? [String: Any])
        let first = (geometry["coordinates"] as? [Double]) ?? (((geometry["coordinates"] as? [[[Double]]])?.first?.first) ?? [0, 0])
        let centre = Coordinate(latitude: first[1], longitude: first[0])
        var random = SplitMix64(seed: seed)
        for index in 0..<count {
            let north = Double.random(in: -halfSide...halfSide, using: &random), east = Double.random(in: -halfSide...halfSide, using: &random)
            let at = Geodesic.destination(from: Geodesic.destination(from: centre, azimuth: 0, distance: north), azimuth: 90, distance: east)
            let radius = Double.random(in: 50...400, using: &random)
            let shape: [String: Any]
            if index % 2 == 0 {
                shape = ["type": "Point", "coordinates": [at.longitude, at.latitude]]
            } else {
                let (dy, dx) = (radius / 111_320, radius / (111_320 * cos(at.latitude * .pi / 180)))
                let ring = [[-dx, -dy], [dx, -dy], [dx, dy], [-dx, dy], [-dx, -dy]].map { [at.longitude + $0[0], at.latitude + $0[1]] }
                shape = ["type": "Polygon", "coordinates": [ring]]
            }
            let properties: [String: Any] = index % 2 == 0 ? ["radius": radius.rounded()] : [:]
            let feature: [String: Any] = ["type": "Feature", "id": "crowd-\(index)", "geometry": shape, "properties": properties]
            features.append(feature)
        }
        let text = String(decoding: try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features]), as: UTF8.self)
        return try directory.write("crowd.geojson", text)
    }

    /// Where the stationary phone lies: inside the square `yard`, 40 m from its western edge.
    static let parked = Coordinate(latitude: 47.3668, longitude: 8.5412)

    /// A 300 m square polygon around `parked`, its western edge 40 m west of it.
    static var yard: String {
        let north = 150 / 111_320.0
        let east = 1 / (111_320.0 * cos(parked.latitude * .pi / 180))
        let (west, eastEdge) = (parked.longitude - 40 * east, parked.longitude + 260 * east)
        let (south, northEdge) = (parked.latitude - north, parked.latitude + north)
        return """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"yard","geometry":{"type":"Polygon","coordinates":[[\
            [\(west),\(south)],[\(eastEdge),\(south)],[\(eastEdge),\(northEdge)],[\(west),\(northEdge)],[\(west),\(south)]]]},\
            "properties":{}}]}
            """
    }

    /// An hour of a phone lying still at `parked`, as a receiver indoors records it: a point every
    /// 10 s wandering about (a correlated error of about 15 m on each axis, now and then across
    /// the yard's edge), four outliers 150–400 m off, hdop on only some points. Seeded. The
    /// simulator takes it as where the phone is and adds its own mode's error on top; outliers
    /// stay under significant change's 500 m, as a receiver's would (they are not movement).
    static func parkedHour(seed: UInt64 = 7) -> String {
        var random = SplitMix64(seed: seed)
        func gaussian() -> Double {
            let u = Double.random(in: Double.ulpOfOne..<1, using: &random), v = Double.random(in: 0..<1, using: &random)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        var (north, east) = (0.0, 0.0)
        var fixes: [Fix] = []
        let start = Timestamp(nanosecondsSince1970: 1_780_290_000_000_000_000)  // 2026-06-01T05:00:00Z
        for step in 0..<360 {
            north = 0.9 * north + 6.5 * gaussian()
            east = 0.9 * east + 6.5 * gaussian()
            var (n, e) = (north, east)
            if [41, 170, 171, 302].contains(step) {
                let (distance, azimuth) = (Double.random(in: 150...400, using: &random), Double.random(in: 0..<360, using: &random))
                (n, e) = (distance * cos(azimuth * .pi / 180), distance * sin(azimuth * .pi / 180))
            }
            let coordinate = Geodesic.destination(
                from: Geodesic.destination(from: parked, azimuth: 0, distance: n), azimuth: 90, distance: e)
            var fix = Fix(time: Timestamp(nanosecondsSince1970: start.nanosecondsSince1970 + Int64(step) * 10_000_000_000), coordinate: coordinate)
            if step % 3 == 0 { fix.hdop = 2 + abs(gaussian()) * 3 }
            fixes.append(fix)
        }
        return NoisyDay.gpx(fixes)
    }
}
