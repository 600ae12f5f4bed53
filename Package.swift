// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Waymark",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "waymark", targets: ["waymark"]),
        .library(name: "WaymarkCore", targets: ["WaymarkCore"]),
        .library(name: "WaymarkRegions", targets: ["WaymarkRegions"]),
        // For handlers written in Swift: events, background tasks, queries (docs/handlers.md).
        .library(name: "WaymarkClient", targets: ["WaymarkClient"]),
        // Exported for the fuzz targets in Fuzz/ (a package of its own; docs/reliability.md).
        .library(name: "WaymarkGeoJSON", targets: ["WaymarkGeoJSON"]),
        .library(name: "WaymarkBeacons", targets: ["WaymarkBeacons"]),
        .library(name: "WaymarkSources", targets: ["WaymarkSources"]),
        .library(name: "WaymarkImport", targets: ["WaymarkImport"]),
        .library(name: "WaymarkDevices", targets: ["WaymarkDevices"]),
        .library(name: "WaymarkOutputs", targets: ["WaymarkOutputs"]),
        .library(name: "WaymarkPower", targets: ["WaymarkPower"]),
        .library(name: "WaymarkHandlers", targets: ["WaymarkHandlers"]),
        .library(name: "WaymarkAPI", targets: ["WaymarkAPI"]),
        .library(name: "WaymarkDaemon", targets: ["WaymarkDaemon"]),
        // For the `extreme-values` fuzz target: the export writers and the history's records.
        .library(name: "WaymarkExport", targets: ["WaymarkExport"]),
        .library(name: "WaymarkStore", targets: ["WaymarkStore"]),
        .library(name: "WaymarkPlaces", targets: ["WaymarkPlaces"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // C libraries from Debian's -dev packages, found through pkg-config.
        .systemLibrary(
            name: "CGPS", path: "Sources/CGPS", pkgConfig: "libgps",
            providers: [.apt(["libgps-dev"])]),
        .systemLibrary(
            name: "CProj", path: "Sources/CProj", pkgConfig: "proj",
            providers: [.apt(["libproj-dev"])]),
        .systemLibrary(
            name: "CMosquitto", path: "Sources/CMosquitto", pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]),
        .systemLibrary(
            name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]),

        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),

        // glibc's malloc.h: malloc_trim, to give start-up's heap back (WaymarkStore.releaseMemory).
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // GNU posix_spawn extensions (closefrom, chdir, setsid) and prlimit for handler processes.
        .target(name: "CWaymarkSpawn"),

        // Pure core: values, geodesy, time. No I/O.
        .target(name: "WaymarkCore", dependencies: ["CProj"]),
        // Pure region geometry, spatial index and membership engine. No I/O.
        .target(name: "WaymarkRegions", dependencies: ["WaymarkCore"]),
        // Beacon regions (docs/semantics.md §3): iBeacon advertisement and HCI report parsing, the
        // beacon monitor (entry, exit after a timeout) and ranging. Pure: bytes and
        // advertisements in, transitions and records out.
        .target(name: "WaymarkBeacons", dependencies: ["WaymarkCore", "WaymarkRegions"]),
        // Location services (docs/semantics.md §2): validation gate, standard updates, significant change,
        // visits, authorization. Pure: fixes in, records out.
        .target(name: "WaymarkServices", dependencies: ["WaymarkCore"]),
        // One device's pipeline (pure): source inputs → region gate, region and beacon monitors,
        // subscribers' services and rangers → typed `LocationEvent`s. Every caller drives it.
        .target(name: "WaymarkPipeline", dependencies: ["WaymarkCore", "WaymarkRegions", "WaymarkBeacons", "WaymarkServices"]),
        // YAML configuration reading shared by the daemon, the fleet and the commands: located errors,
        // and the keys of `PipelineSettings`.
        .target(
            name: "WaymarkConfiguration",
            dependencies: ["WaymarkCore", "WaymarkServices", "WaymarkPipeline", .product(name: "Yams", package: "Yams")]),
        // GeoJSON region files: decoding (pure) and loading files and folders.
        .target(name: "WaymarkGeoJSON", dependencies: ["WaymarkCore", "WaymarkRegions"]),
        // Sources: GPX files and gpsd (fixes); beacon replay files and the HCI socket (advertisements);
        // OwnTracks and OsmAnd messages, and what each gives a device's pipeline (`SourceEvent`).
        .target(
            name: "WaymarkSources",
            dependencies: [
                "WaymarkCore", "CGPS", "CMosquitto", "WaymarkBeacons", "WaymarkGeoJSON", "WaymarkRegions", "WaymarkPipeline",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // History files people hold (Google Takeout, GPX, KML, GeoJSON, FIT, TCX, CSV, OwnTracks
        // Recorder, NMEA, gpsd logs; plain, gzip, zip or folders), read as streams of fixes and
        // reported visits and activities for `waymark import` (docs/import.md).
        .target(
            name: "WaymarkImport",
            dependencies: ["WaymarkCore", "WaymarkSources", "WaymarkGeoJSON", "CZlib"]),
        // `waymark import` and `POST /v1/imports`: files into a device's history, once, in chunks,
        // then the device's pipeline over the new fixes in time order (docs/import.md).
        .target(
            name: "WaymarkImportJob",
            dependencies: [
                "WaymarkImport", "WaymarkStore", "WaymarkPipeline", "WaymarkCore", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The offline reverse geocoder (docs/places.md): GeoNames' populated places and time-zone
        // boundaries from the place-data file the set-up builds. Pure: bytes in, an index out.
        .target(name: "WaymarkPlaces", dependencies: ["WaymarkCore"]),
        // `waymark timeline`, `GET /v1/timeline` and `export --timeline`: a device's history as
        // stays and trips (kept per device in the store), named offline, in local time (docs/timeline.md).
        .target(
            name: "WaymarkTimelineJob",
            dependencies: [
                "WaymarkCore", "WaymarkServices", "WaymarkPlaces", "WaymarkStore", "WaymarkRegions", "WaymarkExport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // SpatiaLite store: regions (and, later, history).
        .target(
            name: "WaymarkStore",
            dependencies: [
                "WaymarkCore", "WaymarkRegions", "WaymarkServices", "WaymarkDevices", "WaymarkOutputs", "CMalloc",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Devices (docs/devices.md): names, secrets (generated, stored as SHA-256, compared in
        // constant time) and request credentials. Pure: no store, no sockets.
        .target(
            name: "WaymarkDevices",
            dependencies: ["WaymarkCore", .product(name: "Crypto", package: "swift-crypto")]),
        // Outputs (docs/outputs.md): definitions and filters, the CloudEvents envelope, webhook
        // signatures and retry backoff. Pure: no store, no sockets.
        .target(
            name: "WaymarkOutputs",
            dependencies: ["WaymarkCore", .product(name: "Crypto", package: "swift-crypto")]),
        // Seeded simulators (pure): tracks (routes, speed, realistic GPS noise), regions along a track, and a
        // phone reporting as OwnTracks does in each mode and obeying Waymark's commands (Phone/).
        .target(name: "WaymarkSimulation", dependencies: ["WaymarkCore", "WaymarkRegions", "WaymarkPower"]),
        // Export formats and their geometry (pure): GPX, GeoJSON, KML and SVG writers over a
        // TextSink; gap rule, simplification, statistics, picture layout onto a Canvas.
        .target(name: "WaymarkExport", dependencies: ["WaymarkCore", "WaymarkRegions"]),
        // PNG pictures: the export's Canvas drawn by cairo.
        .target(name: "WaymarkRender", dependencies: ["WaymarkExport", "CCairo"]),
        // `waymark export` and `waymark stats`: read a GPX track or the history, run the region
        // engine and location services, write a format through a temporary file.
        .target(
            name: "WaymarkExportJob",
            dependencies: [
                "WaymarkCore", "WaymarkRegions", "WaymarkSources", "WaymarkStore", "WaymarkServices",
                "WaymarkGeoJSON", "WaymarkReplay", "WaymarkExport", "WaymarkRender", "WaymarkPipeline",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The replay pipeline: source → engine → JSON Lines records.
        .target(
            name: "WaymarkReplay",
            dependencies: [
                "WaymarkCore", "WaymarkRegions", "WaymarkGeoJSON", "WaymarkSources", "WaymarkStore", "WaymarkServices", "WaymarkPower",
                "WaymarkPipeline", "WaymarkSimulation",
                "WaymarkBeacons", .product(name: "Logging", package: "swift-log"),
            ]),
        // Energy (docs/semantics.md §4): power profiles (declarative YAML), the pure energy ledger, and the
        // GNSS schedule over the region engine and the subscriptions (pure: all three are values).
        .target(
            name: "WaymarkPower",
            dependencies: ["WaymarkCore", "WaymarkRegions", "WaymarkServices", .product(name: "Yams", package: "Yams")]),
        // What Waymark tells each phone (docs/devices.md, "Batteries"): its monitoring mode and the
        // nearest regions to hold, as OwnTracks commands. Pure; the daemon and the fleet share it.
        .target(name: "WaymarkSteering", dependencies: ["WaymarkCore", "WaymarkRegions", "WaymarkPower", "WaymarkSources"]),
        // Handlers (docs/semantics.md §1): registrations, the lifecycle state machine, processes, the
        // handler socket protocol and the supervisor that launches, suspends and relaunches them.
        .target(
            name: "WaymarkHandlers",
            dependencies: [
                "WaymarkCore", "WaymarkServices", "WaymarkRegions", "WaymarkStore", "CWaymarkSpawn",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        // The handler-side client library: Foundation only, so handlers stay small.
        .target(name: "WaymarkClient"),
        // An example handler in Swift, built with the package (examples/handlers/).
        .executableTarget(name: "waymark-example-handler", dependencies: ["WaymarkClient"], path: "examples/handlers/SwiftLogger"),
        // The local HTTP/JSON API (Unix socket, optional loopback TCP with a bearer token).
        .target(
            name: "WaymarkAPI",
            dependencies: [
                "WaymarkCore", "WaymarkRegions", "WaymarkGeoJSON", "WaymarkStore", "WaymarkDevices", "WaymarkSources", "WaymarkOutputs",
                // `GET /v1/export` runs the export code (`HistoryExport`) for the daemon and the fleet alike.
                "WaymarkExportJob",
                // `POST /v1/imports` runs the import code (`HistoryImports`) for the daemon.
                "WaymarkImport", "WaymarkImportJob", "WaymarkPipeline",
                // `GET /v1/timeline` names the history's stays and trips (`WaymarkTimelineJob`).
                "WaymarkTimelineJob", "WaymarkPlaces",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The web page's files, compiled into the binary by SwiftPM (`PackageResources`,
            // served through `WebAssets`): a copied `waymark` serves the page with nothing beside it.
            resources: ["api.js", "app.css", "app.js", "calendar.js", "charts.js", "day.js", "devices.js", "explain.js", "format.js", "geodesic.js",
                "handlers.js", "heat.js", "history.js", "icon.svg", "index.html", "legend.js", "live.js", "locate.js", "map.js", "regions.js", "trail.js"].map { .embedInCode("Web/\($0)") }),
        // Output delivery (docs/outputs.md), shared by the single daemon and the fleet: the channels
        // (webhook, MQTT in every format) and their one factory, the delivery and position runners
        // over a cursor (the history in SQLite, or JetStream), their decisions a pure state machine.
        .target(
            name: "WaymarkDelivery",
            dependencies: [
                "WaymarkCore", "WaymarkOutputs", "WaymarkSources", "WaymarkStore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // `waymark serve`: configuration, the live pipeline (gpsd or replay → store → engine →
        // events), signals, as services in one ServiceGroup.
        .target(
            name: "WaymarkDaemon",
            dependencies: [
                "WaymarkCore", "WaymarkRegions", "WaymarkGeoJSON", "WaymarkSources", "WaymarkStore",
                "WaymarkAPI", "WaymarkServices", "WaymarkHandlers", "WaymarkBeacons", "WaymarkPower", "WaymarkPipeline", "WaymarkDevices", "WaymarkSteering",
                "WaymarkOutputs", "WaymarkExportJob", "WaymarkDelivery", "WaymarkConfiguration", "WaymarkTimelineJob",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // A NATS client with JetStream (docs/fleet.md): the fleet's bus. There is no Swift NATS
        // package, and the protocol is small: text lines over one TCP connection.
        .target(
            name: "WaymarkNATS",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Fleet mode (docs/fleet.md): ingest nodes publish fixes to JetStream, workers own
        // partitions of devices and run their pipelines, state and history live in PostGIS.
        .target(
            name: "WaymarkFleet",
            dependencies: [
                "WaymarkCore", "WaymarkRegions", "WaymarkGeoJSON", "WaymarkPipeline", "WaymarkDevices", "WaymarkSources",
                "WaymarkSteering", "WaymarkStore", "WaymarkAPI", "WaymarkNATS", "WaymarkOutputs", "WaymarkDelivery", "WaymarkConfiguration", "WaymarkBeacons",
                "WaymarkTimelineJob",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "waymark",
            dependencies: [
                "WaymarkCore", "WaymarkRegions", "WaymarkGeoJSON", "WaymarkSources", "WaymarkStore",
                "WaymarkReplay", "WaymarkSimulation", "WaymarkExport", "WaymarkExportJob", "WaymarkAPI",
                "WaymarkDaemon", "WaymarkHandlers", "WaymarkPipeline", "WaymarkServices", "WaymarkDevices", "WaymarkOutputs",
                "WaymarkFleet", "WaymarkDelivery", "WaymarkConfiguration", "WaymarkImport", "WaymarkImportJob",
                "WaymarkPlaces", "WaymarkTimelineJob",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `waymark simulate phone` posts as the OwnTracks app does.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "WaymarkTestSupport",
            dependencies: ["WaymarkCore", "WaymarkRegions", "WaymarkStore"]),

        .testTarget(name: "WaymarkCoreTests", dependencies: ["WaymarkCore", "WaymarkTestSupport"]),
        .testTarget(
            name: "WaymarkRegionsTests",
            dependencies: ["WaymarkRegions", "WaymarkGeoJSON", "WaymarkTestSupport"]),
        .testTarget(name: "WaymarkBeaconsTests", dependencies: ["WaymarkBeacons", "WaymarkGeoJSON", "WaymarkTestSupport"]),
        .testTarget(name: "WaymarkSteeringTests", dependencies: ["WaymarkSteering", "WaymarkTestSupport"]),
        .testTarget(name: "WaymarkPowerTests", dependencies: ["WaymarkPower", "WaymarkRegions", "WaymarkServices", "WaymarkTestSupport"]),
        .testTarget(
            name: "WaymarkPipelineTests",
            dependencies: [
                "WaymarkPipeline", "WaymarkBeacons", "WaymarkGeoJSON", "WaymarkSources", "WaymarkReplay", "WaymarkSimulation",
                "WaymarkTestSupport",
            ]),
        .testTarget(name: "WaymarkDevicesTests", dependencies: ["WaymarkDevices"]),
        .testTarget(name: "WaymarkOutputsTests", dependencies: ["WaymarkOutputs"]),
        .testTarget(
            name: "WaymarkDeliveryTests",
            dependencies: ["WaymarkDelivery", "WaymarkOutputs", "WaymarkCore", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "WaymarkServicesTests", dependencies: ["WaymarkServices", "WaymarkTestSupport"]),
        .testTarget(
            name: "WaymarkSourcesTests", dependencies: ["WaymarkSources", "WaymarkBeacons", "WaymarkTestSupport"]),
        .testTarget(
            name: "WaymarkImportJobTests",
            dependencies: [
                "WaymarkImportJob", "WaymarkImport", "WaymarkStore", "WaymarkPipeline", "WaymarkRegions", "WaymarkCore", "WaymarkTestSupport",
                "WaymarkGeoJSON", "WaymarkSources",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(name: "WaymarkPlacesTests", dependencies: ["WaymarkPlaces", "WaymarkCore", "WaymarkTestSupport"], exclude: ["Samples"]),
        .testTarget(
            name: "WaymarkTimelineJobTests",
            dependencies: [
                "WaymarkTimelineJob", "WaymarkPlaces", "WaymarkServices", "WaymarkStore", "WaymarkRegions", "WaymarkCore",
                "WaymarkGeoJSON", "WaymarkSources", "WaymarkTestSupport", .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "WaymarkImportTests", dependencies: ["WaymarkImport", "WaymarkCore", "WaymarkTestSupport"], exclude: ["Samples"]),
        .testTarget(
            name: "WaymarkStoreTests",
            dependencies: ["WaymarkStore", "WaymarkGeoJSON", "WaymarkSources", "WaymarkDevices", "WaymarkOutputs", "WaymarkTestSupport"]),
        .testTarget(
            name: "WaymarkSimulationTests",
            dependencies: ["WaymarkSimulation", "WaymarkExport", "WaymarkSources", "WaymarkRegions", "WaymarkPower", "WaymarkTestSupport"]),
        .testTarget(
            name: "WaymarkExportTests",
            dependencies: [
                "WaymarkExport", "WaymarkRender", "WaymarkSources", "WaymarkGeoJSON", "WaymarkRegions", "WaymarkTestSupport",
            ]),
        .testTarget(
            name: "WaymarkAPITests",
            dependencies: [
                "WaymarkAPI", "WaymarkDevices", "WaymarkOutputs", "WaymarkStore", "WaymarkTestSupport", .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]),
        .testTarget(
            name: "WaymarkHandlersTests",
            dependencies: [
                "WaymarkHandlers", "WaymarkStore", "WaymarkTestSupport", .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "WaymarkDaemonTests",
            dependencies: [
                "WaymarkDaemon", "WaymarkSources", "WaymarkBeacons", "WaymarkPower", "WaymarkStore", "WaymarkDevices", "WaymarkOutputs",
                "WaymarkDelivery", "WaymarkTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "WaymarkNATSTests",
            dependencies: ["WaymarkNATS", "WaymarkTestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "WaymarkFleetTests",
            dependencies: [
                "WaymarkFleet", "WaymarkNATS", "WaymarkTestSupport", "WaymarkCore", "WaymarkRegions", "WaymarkPipeline", "WaymarkGeoJSON",
                "WaymarkSources", .product(name: "Logging", package: "swift-log"), .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        .testTarget(
            name: "WaymarkCLITests",
            dependencies: [
                "WaymarkClient", "WaymarkCore", "WaymarkStore", "WaymarkImport", "WaymarkTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
