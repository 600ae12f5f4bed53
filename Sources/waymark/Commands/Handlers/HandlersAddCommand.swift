import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkHandlers
import WaymarkServices
import WaymarkStore

extension HandlersCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a handler: an executable launched, never through a shell, for its subscription's events.",
            discussion: """
                Example: waymark handlers add hut-log --exec /usr/local/bin/hut-log --regions hut --significant -- --verbose
                Arguments after -- are passed to the executable.
                """)

        @Argument(help: "The handler's name: letters, digits, '.', '_', '-'.")
        var name: String

        @Option(name: .customLong("exec"), help: "The executable (made absolute).")
        var executable: String

        @Option(name: .customLong("cwd"), help: "Working directory (default /).")
        var workingDirectory = "/"

        @Option(name: .customLong("env"), help: "Pass this variable of the daemon's environment on (repeatable).")
        var environment: [String] = []

        @Flag(help: "Significant-change updates.") var significant = false
        @Flag(help: "Standard location updates (relaunch a terminated handler only with --always, the default).") var standard = false
        @Option(name: .customLong("desired-accuracy"), help: "With --standard: best-for-navigation, best, 10, 100, 1000, 3000.") var desiredAccuracy: String?
        @Option(name: .customLong("distance-filter"), help: "With --standard: metres.") var distanceFilter: Double?
        @Flag(help: "With --standard: pause automatically when stationary (\"paused\"/\"resumed\").") var pauses = false
        @Option(name: .customLong("defer-distance"), help: "With --standard: deliver in batches every so many metres.") var deferDistance: Double?
        @Option(name: .customLong("defer-interval"), help: "With --standard: deliver in batches every so many seconds.") var deferInterval: Double?
        @Flag(help: "Visits.") var visits = false
        @Flag(help: "Timeline stays and trips, each once it has ended (\"stay\"/\"trip\").") var timeline = false
        @Option(parsing: .upToNextOption, help: "Region identifiers to monitor.") var regions: [String] = []
        @Flag(name: .customLong("all-regions"), help: "Every region, including ones added later.") var allRegions = false
        @Option(parsing: .upToNextOption, help: "Beacon region identifiers to monitor (entry, exit).") var beacons: [String] = []
        @Flag(name: .customLong("all-beacons"), help: "Every beacon region, including ones added later.") var allBeacons = false
        @Option(parsing: .upToNextOption, help: "Beacon regions to range about once a second while it runs.") var ranging: [String] = []
        @Flag(help: "Accessory changes: a receiver attached or removed, the Bluetooth adapter up or down, the fix lost or regained (launch reason accessory).") var accessory = false
        @Option(parsing: .upToNextOption, help: "Only these devices' events (default: every device's; docs/devices.md).") var device: [String] = []
        @Option(help: "fitness, automotive, other or airborne.") var activity = "other"
        @Flag(name: .customLong("when-in-use"), help: "When-in-use authorization (default always).") var whenInUse = false
        @Flag(help: "Approximate authorization: coarse coordinates, no region monitoring.") var approximate = false
        @Flag(name: .customLong("no-relaunch"), help: "Not relaunched after a force-quit until `handlers launch`.") var noRelaunch = false
        @Flag(name: .customLong("no-background-refresh"), help: "Never launched or resumed in the background.") var noBackgroundRefresh = false
        @Flag(name: .customLong("exits-on-suspend"), help: "Terminated instead of suspended when its budget is spent.") var exitsOnSuspend = false
        @Option(help: "Seconds of background time per wake-up (default 10).") var budget: Double = 10
        @Option(name: .customLong("max-background-time"), help: "Cap with background tasks, seconds (default 180).") var maximumBackgroundTime: Double = 180
        @Option(name: .customLong("memory-limit"), help: "Address-space limit, bytes.") var memoryLimit: Int?
        @Option(name: .customLong("fetch-interval"), help: "Background fetch: wake it at most this often, seconds (a minimum, not a promise).") var fetchInterval: Double?
        @Flag(help: "Replace a handler of the same name.") var replace = false
        @OptionGroup var store: RegionsCommand.StoreOptions
        @Argument(parsing: .postTerminator, help: "Arguments for the executable.") var arguments: [String] = []

        func validate() throws {
            // Conflicts between flags, before anything is opened; the registration's own
            // checks (file, regions) run in `run`.
            if !regions.isEmpty && allRegions { throw ValidationError("--regions and --all-regions conflict: give one") }
            if (desiredAccuracy != nil || distanceFilter != nil || pauses || deferDistance != nil || deferInterval != nil) && !standard {
                throw ValidationError("--desired-accuracy, --distance-filter, --pauses, --defer-distance and --defer-interval need --standard")
            }
        }

        func run() throws {
            let path = executable.hasPrefix("/") ? executable : URL(fileURLWithPath: executable).standardizedFileURL.path
            let registration = HandlerRegistration(
                name: name, executable: path, arguments: arguments, workingDirectory: workingDirectory,
                environment: environment,
                subscription: HandlerSubscription(
                    services: ServiceSubscriptionSettings(
                        standard: standard, desiredAccuracy: desiredAccuracy, distanceFilter: distanceFilter, pauses: pauses,
                        deferredDistance: deferDistance, deferredInterval: deferInterval,
                        significantChange: significant, visits: visits, timeline: timeline, activity: activity),
                    regions: regions, allRegions: allRegions, beacons: beacons, allBeacons: allBeacons, ranging: ranging,
                    authorizationLevel: whenInUse ? "whenInUse" : "always",
                    precision: approximate ? "approximate" : "precise", devices: device, accessory: accessory),
                relaunchAfterForceQuit: !noRelaunch, backgroundRefresh: !noBackgroundRefresh, exitsOnSuspend: exitsOnSuspend,
                limits: HandlerLimits(budget: budget, maximumBackgroundTime: maximumBackgroundTime, memoryBytes: memoryLimit),
                fetchInterval: fetchInterval)
            if let client = try store.daemon() {
                // The running daemon registers it in its own database and routes events to it at once.
                _ = try RegionsCommand.call(client, "POST", "/v1/handlers?replace=\(replace)", body: Array(try registration.encoded().utf8))
                print("registered handler '\(name)'")
                return
            }
            let database = try store.open()
            do {
                try registration.validate { try database.region(identifier: $0) }
            } catch let error as HandlerError {
                throw CommandError(error.description)
            }
            try database.saveHandler(
                name: name, registrationJSON: try registration.encoded(), replace: replace,
                at: Timestamp(secondsSince1970: Date().timeIntervalSince1970))
            try HandlersCommand.notifyDaemon(store)
            print("registered handler '\(name)'")
        }
    }
}
