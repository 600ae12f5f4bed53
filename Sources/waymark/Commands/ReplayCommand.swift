import ArgumentParser
import WaymarkExport
import WaymarkPower
import WaymarkReplay
import WaymarkServices
import WaymarkSources

struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a track (GPX, NMEA 0183, gpsd JSON) through the region engine, and/or beacon advertisements, printing JSON Lines.",
        discussion: """
            Reads the track's fixes in order: a GPX file's track points, then route \
            points (waypoints are not a path); an NMEA 0183 log's epochs with a valid \
            position (docs/replay.md); a gpsd JSON log's TPV reports with a solution \
            (gpspipe -w, with or without -r). The format is told by the content \
            unless --track-format says. It imports the regions into a SpatiaLite \
            database (validated with ST_IsValid), and runs every fix through the \
            region engine. With --beacons, advertisements from a beacon replay file \
            (docs/beacons.md) go through the beacon monitor, merged with the track by \
            time, or alone without a track.

            Output: one JSON object per line on standard output, each with a "kind":
              state    the first fix: time, latitude, longitude, inside (region IDs)
              region   transition (enter|exit), region, time, latitude, longitude
              beacon   transition (enter|exit), region, time; uuid, major, minor, rssi
                       (enter) or lastSeen (exit)
              ranging  time, beacons (uuid, major, minor, rssi, measuredPower,
                       distance, proximity, samples), about once a second; --ranging
              location, significantChange, visit (event arrival|departure), paused,
              resumed: from the location services asked for, each with time, latitude,
              longitude
              summary  the last line: fixes, untimedFixes, regions, transitions; with
                       services also accepted, dropped (by reason), events (by kind);
                       with --beacons, beacons (advertisements, regions, transitions,
                       ignored by reason, inside)
            Times are RFC 3339 in UTC; an untimed point has "time":null. Warnings \
            and progress go to standard error. Exit status: 0 on success, 1 on bad \
            input (reported as FILE:LINE:COLUMN: message), 64 on bad options.
            """)

    @Argument(help: "The track to replay: GPX 1.0 or 1.1, an NMEA 0183 log, or a gpsd JSON log (optional with --beacons).")
    var track: String?

    @Option(name: .customLong("track-format"), help: "The track's format, gpx, nmea or gpsd (default: told by its content).")
    var trackFormat: TrackFormat?

    @Option(help: "A beacon replay file (JSON Lines of advertisements, docs/beacons.md), played beside the track or alone.")
    var beacons: String?

    @Flag(help: "With --beacons: also print ranging records (each visible beacon's smoothed RSSI, distance and proximity, once a second).")
    var ranging = false

    @Option(
        name: .long, parsing: .upToNextOption,
        help: "GeoJSON files or folders of regions (every *.geojson / *.json inside).")
    var regions: [String] = []

    @Option(
        name: .customLong("id-property"),
        help: "Feature property that names a region (default: the feature's id, then properties.identifier, then properties.name).")
    var idProperty: String?

    @Flag(name: .customLong("number-unnamed"), help: "Name features that have no identifier FILE#INDEX (e.g. ne_50m_urban_areas#17) instead of rejecting them.")
    var numberUnnamed = false

    @Option(name: .customLong("db"), help: "SpatiaLite database to import the regions into and keep (default: a private temporary one, deleted on exit). With no --regions, the regions already stored there are used.")
    var database: String?

    @OptionGroup(title: "Pipeline settings (the daemon's keys; docs/configuration.md)")
    var pipeline: PipelineSettingsOptions

    @Flag(help: "Replay as fast as possible (the default when standard output is not a terminal).")
    var fast = false

    @Option(help: "Replay FACTOR times faster than real time (the default on a terminal is 1, real time).")
    var speed: Double?

    @Flag(help: "Account GNSS time and energy on the track's timeline; the summary gives gpsOnSeconds, durationSeconds and energyJoules.")
    var energy = false

    @Flag(name: .customLong("power-aware"), help: "Let the GNSS sleep until a region boundary could be crossed (implies --energy; not with --standard).")
    var powerAware = false

    @Option(name: .customLong("power-profile"), help: "A GNSS power profile (YAML, Profiles/power/); default: the built-in u-blox M8 profile.")
    var powerProfile: String?

    @OptionGroup(title: "Location services (docs/semantics.md §2; each behind the validation gate)")
    var services: ServiceOptions

    func validate() throws {
        if track == nil && beacons == nil { throw ValidationError("give a track, --beacons FILE, or both") }
        if track == nil && trackFormat != nil { throw ValidationError("--track-format needs a track") }
        if ranging && beacons == nil { throw ValidationError("--ranging needs --beacons") }
        if fast && speed != nil { throw ValidationError("--fast and --speed cannot be used together") }
        if let speed, !(speed.isFinite && speed > 0) { throw ValidationError("--speed must be a positive number, got \(speed)") }
    }

    func run() async throws {
        let pacing: Pacing
        if let speed {
            pacing = .scaled(by: speed)
        } else if fast || !Terminal.standardOutputIsTerminal {
            pacing = .asFastAsPossible
        } else {
            pacing = .scaled(by: 1)
        }
        var options = ReplayOptions(
            trackPath: track, regionPaths: regions, idProperty: idProperty, databasePath: database, pacing: pacing)
        options.numberUnnamedFeatures = numberUnnamed
        options.trackFormat = trackFormat
        options.settings = try pipeline.settings()
        options.beaconPath = beacons
        options.ranging = ranging
        options.services = try services.selection()
        if powerAware && options.services.standard != nil {
            throw ValidationError("--power-aware lets the GNSS sleep, which standard updates cannot: drop --standard or --power-aware")
        }
        options.energy = energy
        options.powerAware = powerAware
        if let powerProfile {
            let profile = try PowerProfile.load(file: powerProfile)
            guard profile.radio == .gnss else { throw ValidationError("--power-profile \(powerProfile) describes a \(profile.radio.rawValue) radio, not gnss") }
            options.powerProfile = profile
        }
        let output = FileSink.standardOutput()
        let progress: ReplayProgress? = Terminal.standardErrorIsTerminal ? ReplayProgress(report: { Terminal.status($0) }) : nil
        do {
            _ = try await Replay.run(options, output: output, progress: progress, logger: CommandLogging.logger("waymark.replay"))
        } catch FileSinkError.closedPipe {
            // The reader stopped early (e.g. `| head`): not an error.
        }
        if progress != nil { Terminal.status(nil) }
    }
}

/// The flags that choose location services, shared by replay (and later handlers).
struct ServiceOptions: ParsableArguments {
    @Flag(help: "Standard location updates (kind \"location\").")
    var standard = false

    @Option(name: .customLong("desired-accuracy"), help: "best-for-navigation, best, 10, 100, 1000 or 3000 (metres); with --standard.")
    var desiredAccuracy: String?

    @Option(name: .customLong("distance-filter"), help: "Metres from the last delivered location before the next; with --standard.")
    var distanceFilter: Double?

    @Flag(help: "Pause standard updates automatically when stationary (\"paused\"/\"resumed\"); with --standard.")
    var pauses = false

    @Option(name: .customLong("defer-distance"), help: "Deliver standard updates in batches every this many metres; with --standard.")
    var deferDistance: Double?

    @Option(name: .customLong("defer-interval"), help: "Deliver standard updates in batches every this many seconds; with --standard.")
    var deferInterval: Double?

    @Flag(help: "Significant-change updates (≥ 500 m and ≥ 300 s from the last one).")
    var significant = false

    @Flag(help: "Visits: arrival after 5 min within 100 m, departure when leaving.")
    var visits = false

    @Flag(help: "Timeline stays (\"stay\", once left) and the trips between them (\"trip\", once the next stay is reached); the visit rule's stays.")
    var timeline = false

    @Option(help: "fitness, automotive, other or airborne: the speed bound of the validation gate.")
    var activity: String = "other"

    @Flag(help: "Approximate authorization: coordinates coarsened to a ~3 km grid; disables region monitoring.")
    var approximate = false

    func selection() throws -> ServiceSubscription {
        var selection = ServiceSubscription()
        let standardOnly = desiredAccuracy != nil || distanceFilter != nil || pauses || deferDistance != nil || deferInterval != nil
        if standardOnly && !standard {
            throw ValidationError("--desired-accuracy, --distance-filter, --pauses, --defer-distance and --defer-interval need --standard")
        }
        if standard {
            var configuration = StandardUpdates.Configuration()
            if let desiredAccuracy {
                guard let parsed = DesiredAccuracy(argument: desiredAccuracy) else {
                    throw ValidationError("--desired-accuracy must be best-for-navigation, best, 10, 100, 1000 or 3000, got '\(desiredAccuracy)'")
                }
                configuration.desiredAccuracy = parsed
            }
            for (name, value) in [("--distance-filter", distanceFilter), ("--defer-distance", deferDistance), ("--defer-interval", deferInterval)] {
                if let value, !(value.isFinite && value > 0) { throw ValidationError("\(name) must be a positive number") }
            }
            configuration.distanceFilter = distanceFilter
            configuration.pausesAutomatically = pauses
            configuration.deferredDistance = deferDistance
            configuration.deferredInterval = deferInterval
            selection.standard = configuration
        }
        guard let activityType = ActivityType(rawValue: activity) else {
            throw ValidationError("--activity must be fitness, automotive, other or airborne, got '\(activity)'")
        }
        selection.activity = activityType
        selection.significantChange = significant ? SignificantChangeThresholds() : nil
        selection.visits = visits ? VisitThresholds() : nil
        selection.timeline = timeline ? VisitThresholds() : nil
        selection.authorization.precision = approximate ? .approximate : .precise
        return selection
    }
}
