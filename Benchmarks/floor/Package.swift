// swift-tools-version:6.0
// The smallest Swift process that does what the daemon needs before it does anything of its
// own: Foundation, and one SQLite connection with SpatiaLite on Waymark's database. Its
// resident set is the floor under `waymark serve`'s at rest (Benchmarks/at_rest.py --floor).
import PackageDescription

let package = Package(
    name: "floor",
    targets: [
        .systemLibrary(name: "CSQLiteFloor", path: "Sources/CSQLiteFloor"),
        .executableTarget(name: "floor", dependencies: ["CSQLiteFloor"]),
    ]
)
