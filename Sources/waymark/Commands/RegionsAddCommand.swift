import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkGeoJSON
import WaymarkRegions

extension RegionsCommand {
    /// `waymark regions add ID --center LAT,LON --radius M [timing options]`: a circle, made as
    /// the GeoJSON feature a file would hold, so it goes through the same decoder, store and API.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a circular region, with its own timing (docs/semantics.md §3.2).",
            discussion: """
                The same as importing the GeoJSON feature {"type":"Feature","id":ID,"geometry":\
                {"type":"Point","coordinates":[LON,LAT]},"properties":{"radius":M,"enterDelay":S,…}}. \
                Options left out take the defaults; `regions list` shows the effective ones.
                """)

        @Argument(help: "The region's identifier.")
        var identifier: String

        // `.unconditional` here and below: a southern latitude (-33.9,151.2) or a negative number
        // is the flag's value, not an option (a negative delay is then refused naming its value).
        @Option(parsing: .unconditional, help: "The centre as LAT,LON in degrees (e.g. 48.137,11.575).")
        var center: String

        @Option(parsing: .unconditional, help: "Radius in metres, > 0 and at most 1000000.")
        var radius: Double

        @Option(name: .customLong("enter-delay"), parsing: .unconditional, help: "Seconds inside before an entry is reported (default 20).")
        var enterDelay: Double?

        @Option(name: .customLong("exit-delay"), parsing: .unconditional, help: "Seconds outside before an exit is reported (default 20).")
        var exitDelay: Double?

        @Option(parsing: .unconditional, help: "Metres past the edge a fix must be to confirm a crossing (default: the smaller of 200 and a fifth of the radius).")
        var margin: Double?

        @Option(name: .customLong("max-accuracy"), parsing: .unconditional, help: "Fixes less accurate than this many metres do not decide this region (default: no limit).")
        var maxAccuracy: Double?

        @Option(parsing: .unconditional, help: "Rank among overlapping regions for the device's place, higher wins (default 0).")
        var priority: Int?

        @Flag(inversion: .prefixedNo, help: "Report entries (the state changes either way).")
        var notifyOnEntry = true

        @Flag(inversion: .prefixedNo, help: "Report exits (the state changes either way).")
        var notifyOnExit = true

        @Flag(help: "Replace a region with this identifier (default: an error).")
        var replace = false

        @OptionGroup var store: StoreOptions

        func validate() throws {
            if let problem = RegionLimits.problem(withIdentifier: identifier) { throw ValidationError(problem) }
            _ = try coordinate()
            if !(radius.isFinite && radius > 0 && radius <= RegionLimits.maximumRadius) {
                throw ValidationError("--radius must be metres > 0 and at most \(Int(RegionLimits.maximumRadius)), got \(Self.text(radius))")
            }
            for (flag, value) in [("--enter-delay", enterDelay), ("--exit-delay", exitDelay), ("--margin", margin)] {
                if let value, !(value.isFinite && value >= 0) {
                    throw ValidationError("\(flag) must be a finite number ≥ 0, got \(Self.text(value))")
                }
            }
            if let maxAccuracy, !(maxAccuracy.isFinite && maxAccuracy > 0) {
                throw ValidationError("--max-accuracy must be a finite number of metres > 0, got \(Self.text(maxAccuracy))")
            }
            let limit = RegionLimits.maximumPriority
            if let priority, !(-limit...limit).contains(priority) {
                throw ValidationError("--priority must be an integer within -\(limit)…\(limit), got \(priority)")
            }
        }

        /// A number as the user would have typed it: `5`, not `5.0`.
        static func text(_ value: Double) -> String { value.isFinite ? JSONObjectWriter.number(value) : "\(value)" }

        /// `--center`, checked.
        func coordinate() throws -> Coordinate {
            let parts = center.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let latitude = Double(parts[0].trimmingCharacters(in: .whitespaces)),
                let longitude = Double(parts[1].trimmingCharacters(in: .whitespaces))
            else {
                throw ValidationError("--center must be LAT,LON in degrees (e.g. 48.137,11.575), got '\(center)'")
            }
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw ValidationError("--center '\(center)': latitude must be within -90…90 and longitude within -180…180")
            }
            return Coordinate(latitude: latitude, longitude: longitude)
        }

        /// The feature, as a file would hold it.
        func feature() throws -> String {
            let c = try coordinate()
            var geometry = JSONObjectWriter()
            geometry.add("type", "Point")
            geometry.addRaw("coordinates", "[" + JSONObjectWriter.number(c.longitude) + "," + JSONObjectWriter.number(c.latitude) + "]")
            typealias Key = RegionOptions.Key
            var properties = JSONObjectWriter()
            properties.add("radius", radius)
            if let enterDelay { properties.add(Key.enterDelay, enterDelay) }
            if let exitDelay { properties.add(Key.exitDelay, exitDelay) }
            if let margin { properties.add(Key.margin, margin) }
            if let maxAccuracy { properties.add(Key.maxAccuracy, maxAccuracy) }
            if let priority { properties.add(Key.priority, priority) }
            if !notifyOnEntry { properties.add(Key.notifyOnEntry, false) }
            if !notifyOnExit { properties.add(Key.notifyOnExit, false) }
            var json = JSONObjectWriter()
            json.add("type", "Feature")
            json.add("id", identifier)
            json.addRaw("geometry", geometry.object)
            json.addRaw("properties", properties.object)
            return json.object
        }

        func run() throws {
            try RegionsCommand.add(try feature(), named: "region \(identifier)", by: "regions add", replace: replace, store: store)
        }
    }

    /// Adds the region a GeoJSON `feature` describes, as `regions add` and `add-beacon` make
    /// them: through the running daemon (printing its answer) when one answers, else into the
    /// store, printing "added NAME" or "replaced NAME". `command` stands for the file in errors.
    static func add(_ feature: String, named name: String, by command: String, replace: Bool, store: StoreOptions) throws {
        let bytes = Array(feature.utf8)
        if let client = try store.daemon() {
            print(try call(client, "POST", "/v1/regions?replace=\(replace)", body: bytes))
            return
        }
        let regions = try GeoJSONRegionDecoder().decode(bytes, file: command).map(\.region)
        let report = try store.open().importRegions(regions, replace: replace)
        print("\(report.replaced.isEmpty ? "added" : "replaced") \(name)")
    }
}
