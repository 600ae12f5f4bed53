// swift-tools-version:6.0
// libFuzzer targets for Waymark's parsers of untrusted bytes: one executable per parser.
// A package of its own, so the main package's build and tests never see these executables.
// Build and run through scripts/fuzz.sh (docs/reliability.md, "Fuzzing").
import PackageDescription

/// `name` is the target's name in scripts/fuzz.sh; the executable is `fuzz-NAME`, its source
/// Targets/NAME/.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: "fuzz-\(name)", dependencies: dependencies, path: "Targets/\(name)")
}

func waymark(_ module: String) -> Target.Dependency { .product(name: module, package: "Waymark") }

let targets: [Target] = [
    fuzzTarget("gpx", [waymark("WaymarkSources")]),
    fuzzTarget("gpsd", [waymark("WaymarkSources")]),
    fuzzTarget("json", [waymark("WaymarkGeoJSON")]),
    fuzzTarget("geojson", [waymark("WaymarkGeoJSON")]),
    fuzzTarget("beacon-replay", [waymark("WaymarkSources")]),
    fuzzTarget("hci", [waymark("WaymarkBeacons"), waymark("WaymarkCore")]),
    fuzzTarget("owntracks", [waymark("WaymarkSources"), waymark("WaymarkOutputs"), waymark("WaymarkDaemon"), waymark("WaymarkCore")]),
    fuzzTarget("osmand", [waymark("WaymarkSources")]),
    fuzzTarget("device-credentials", [waymark("WaymarkDevices")]),
    fuzzTarget("handler-request", [waymark("WaymarkHandlers")]),
    fuzzTarget("handler-registration", [waymark("WaymarkHandlers")]),
    fuzzTarget("handler-client", [waymark("WaymarkClient")]),
    fuzzTarget("config", [waymark("WaymarkDaemon")]),
    fuzzTarget("power-profile", [waymark("WaymarkPower")]),
    fuzzTarget("api-output", [waymark("WaymarkAPI"), waymark("WaymarkOutputs"), waymark("WaymarkCore")]),
    fuzzTarget("api-device", [waymark("WaymarkAPI"), waymark("WaymarkDevices")]),
    fuzzTarget("track-log", [waymark("WaymarkSources")]),
    fuzzTarget("import", [waymark("WaymarkImport")]),
    fuzzTarget(
        "extreme-values", [waymark("WaymarkCore"), waymark("WaymarkOutputs"), waymark("WaymarkExport"), waymark("WaymarkStore"), waymark("WaymarkRegions")]),
]

let package = Package(
    name: "WaymarkFuzz",
    platforms: [.macOS(.v14)],
    products: targets.map { .executable(name: $0.name, targets: [$0.name]) },
    dependencies: [.package(name: "Waymark", path: "..")],
    targets: targets,
    swiftLanguageModes: [.v6]
)
