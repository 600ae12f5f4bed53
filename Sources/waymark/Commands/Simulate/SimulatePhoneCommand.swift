import ArgumentParser
import Foundation
import Logging
import WaymarkCore
import WaymarkGeoJSON
import WaymarkPower
import WaymarkRegions
import WaymarkSimulation
import WaymarkSources
import WaymarkStore

/// `waymark simulate phone`: plays a recorded track as an OwnTracks phone would report it,
/// against a running daemon, obeying the commands the daemon answers with (docs/devices.md,
/// "Phone simulator"). The model is `PhoneSimulator`; this command only moves its messages.
struct SimulatePhoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "phone",
        abstract: "Play a GPX track as an OwnTracks phone against a daemon, obeying its commands; print what it cost.",
        discussion: """
            The phone reports as the app does in its mode (significant: about every 500 m and \
            5 min, network accuracy; move: every --locator-interval s or --locator-displacement m, \
            GNSS accuracy), geofences the circles the daemon sends it (20 at most, a crossing after \
            20 s 50 m past the edge), and obeys setConfiguration, setWaypoints, clearWaypoints and \
            reportLocation unless --ignore-commands. Time is the track's, played as fast as the \
            daemon answers. Over HTTP each report is POSTed to URL/v1/owntracks; with --mqtt it is \
            published to owntracks/USER/DEVICE (transitions to …/event) and commands are read from \
            …/cmd. The summary (JSON with --json) gives reports, transitions, seconds per mode, \
            commands obeyed and ignored, waypoints held, window misses (with --truth-regions) and \
            the energy by radio.
            """)

    @Argument(help: "The GPX track to play.")
    var track: String

    @Option(help: "The daemon's device listener, e.g. http://127.0.0.1:8083.")
    var url: String?

    @Option(help: "The device's name (OwnTracks' device ID).")
    var device: String

    @Option(name: .customLong("secret-file"), help: "A file holding the device's secret (HTTP's password).")
    var secretFile: String?

    @Option(help: "Publish over MQTT to the broker at HOST:PORT instead of HTTP.")
    var mqtt: String?

    @Option(help: "The device's user (OwnTracks' user ID; default the device's name).")
    var user: String?

    @Option(help: "The phone's monitoring mode at the start: significant or move.")
    var mode: String = "significant"

    @Flag(name: .customLong("ignore-commands"), help: "Remote configuration off: the phone ignores every command.")
    var ignoreCommands = false

    @Option(name: .customLong("truth-regions"), help: "GeoJSON file or folder of every region, to count entries into regions the phone did not hold.")
    var truthRegions: String?

    @Option(name: .customLong("locator-interval"), help: "Move mode's seconds between reports, until a command changes it.")
    var locatorInterval: Double = 300

    @Option(name: .customLong("locator-displacement"), help: "Move mode's metres between reports, until a command changes it.")
    var locatorDisplacement: Double = 100

    @Option(help: "Seed of the phone's position errors.")
    var seed: UInt64 = 1

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    func validate() throws {
        guard PhoneMode(rawValue: mode) != nil else { throw ValidationError("--mode: '\(mode)' is neither significant nor move") }
        guard locatorInterval > 0 else { throw ValidationError("--locator-interval must be positive") }
        guard locatorDisplacement >= 0 else { throw ValidationError("--locator-displacement must not be negative") }
        if mqtt == nil {
            guard url != nil else { throw ValidationError("--url is needed (or --mqtt HOST:PORT)") }
            guard secretFile != nil else { throw ValidationError("--secret-file is needed over HTTP") }
        }
    }

    func run() async throws {
        let (fixes, regions, secret) = try await WaymarkStore.offPool { [track, truthRegions, secretFile] in
            try Self.read(track: track, truthRegions: truthRegions, secretFile: secretFile)
        }
        var settings = PhoneSimulator.Settings(mode: PhoneMode(rawValue: mode)!, remoteConfiguration: !ignoreCommands, seed: seed)
        settings.locatorInterval = locatorInterval
        settings.locatorDisplacement = locatorDisplacement
        var phone = PhoneSimulator(track: fixes, settings: settings, regions: regions)
        guard phone.hasTrack else { throw CommandError("\(track): no timed points to play") }

        let user = self.user ?? device
        let transport: any PhoneTransport
        if let mqtt {
            let (host, port) = try Self.hostAndPort(mqtt)
            transport = try await MQTTPhoneTransport(host: host, port: port, user: user, device: device, logger: CommandLogging.logger("waymark.simulate"))
        } else {
            transport = HTTPPhoneTransport(baseURL: url!, user: user, device: device, secret: secret ?? "")
        }
        do {
            while let message = phone.next() {
                for reply in try await transport.send(message) { phone.receive(reply: reply) }
            }
        } catch {
            await transport.close()
            throw error
        }
        await transport.close()
        let summary = PhoneRunSummary(track: track, transport: mqtt == nil ? "http" : "mqtt", phone: phone, truthRegions: regions != nil)
        print(json ? summary.json : summary.text)
    }

    /// The track's fixes, the truth regions and the secret, read off the cooperative pool.
    static func read(track: String, truthRegions: String?, secretFile: String?) throws -> ([Fix], [Region]?, String?) {
        let fixes: [Fix]
        do { fixes = try GPXFixSource.fixes(atPath: track) } catch { throw CommandError("\(error)") }
        let regions: [Region]?
        do { regions = try truthRegions.map { try GeoJSONRegionLoader.load(paths: [$0]) } } catch {
            throw CommandError("--truth-regions: \(error)")
        }
        var secret: String?
        if let secretFile {
            guard let text = try? String(contentsOfFile: secretFile, encoding: .utf8) else {
                throw CommandError("--secret-file: cannot read \(secretFile)")
            }
            secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard secret?.isEmpty == false else { throw CommandError("--secret-file: \(secretFile) is empty") }
        }
        return (fixes, regions, secret)
    }

    static func hostAndPort(_ text: String) throws -> (String, Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port),
            colon > text.startIndex
        else { throw ValidationError("--mqtt: '\(text)' is not HOST:PORT") }
        return (String(text[..<colon]), port)
    }
}
