import ArgumentParser
import Foundation
import WaymarkAPI
import WaymarkCore
import WaymarkDaemon
import WaymarkDelivery
import WaymarkDevices
import WaymarkOutputs
import WaymarkStore

/// `waymark outputs …`: where Waymark sends its events (docs/outputs.md). Through a running
/// daemon's API when one answers (which restarts its outputs at once), else straight into the
/// database, read when the daemon starts.
struct OutputsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outputs",
        abstract: "Send events to webhooks and MQTT brokers: add, list, test and remove outputs, and see and retry what they gave up on (docs/outputs.md).",
        subcommands: [Add.self, List.self, Test.self, Log.self, Retry.self, Remove.self])

    /// `POST /v1/outputs/NAME/ACTION` to the daemon, its answer decoded; "no output named" for a 404.
    static func post<Answer: Decodable>(_ client: UnixSocketHTTPClient, _ action: String, output name: String, answer: Answer.Type) throws -> Answer {
        let path = "/v1/outputs/\(DevicesCommand.escaped(name))/\(action)"
        guard let text = try DevicesCommand.call(client, "POST", path: path) else { throw CommandError("no output named '\(name)'") }
        return try DevicesCommand.decode(Answer.self, text, answering: "POST \(path)")
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a webhook or an MQTT output and print the secret a webhook's signatures are made with (shown once).",
            discussion: """
                Each event is POSTed as a CloudEvent (application/cloudevents+json) and signed: \
                Waymark-Signature: t=UNIX_SECONDS,v1=HMAC-SHA256(secret, "UNIX_SECONDS.BODY") in hex. \
                An MQTT output publishes the same CloudEvent at QoS 1 on its topic. \
                Delivery starts with the events after this one is added, in order, at least once.
                """)

        @Argument(help: "The output's name: letters, digits, '.', '_', '-'.")
        var name: String

        @Option(help: "A webhook: the receiver's http:// or https:// URL.")
        var webhook: String?

        @Option(help: "An MQTT broker and topic: mqtt://[USER[:PASSWORD]@]HOST[:PORT]/TOPIC, where {device} and {kind} in TOPIC become the event's.")
        var mqtt: String?

        @Flag(help: "With --mqtt: publish OwnTracks' own transition and location messages on TOPIC/USER/DEVICE[/event] (for Home Assistant's OwnTracks integration) instead of CloudEvents.")
        var owntracks = false

        @Flag(help: "With --mqtt: Home Assistant MQTT discovery instead of CloudEvents: a device tracker per device and a presence sensor per region (retained, under TOPIC).")
        var homeAssistant = false

        @Option(help: "With --owntracks or --home-assistant: seconds between a device's published positions (default 10; 0: every fix).")
        var locationSeconds: Int?

        @Option(name: .customLong("region"), help: "Only events of this region (repeat for more; default: all).")
        var regions: [String] = []

        @Option(name: .customLong("device"), help: "Only events of this device (repeat for more; default: all).")
        var devices: [String] = []

        @Option(name: .customLong("kind"), help: "Only events of this kind (repeat for more; default: region and beacon).")
        var kinds: [String] = []

        @Option(help: "Seconds an event is retried before it is given up on (default: 86400).")
        var keep: Int?

        @OptionGroup var store: RegionsCommand.StoreOptions

        private var request: NewOutput {
            NewOutput(
                name: name, url: webhook ?? mqtt ?? "", regions: regions, devices: devices, kinds: kinds.isEmpty ? nil : kinds, keepSeconds: keep,
                format: owntracks ? Output.Format.ownTracks.rawValue : homeAssistant ? Output.Format.homeAssistant.rawValue : nil,
                locationSeconds: locationSeconds)
        }

        func validate() throws {
            guard (webhook == nil) != (mqtt == nil) else { throw ValidationError("give --webhook URL or --mqtt URL (one of them)") }
            guard !(owntracks && homeAssistant) else { throw ValidationError("give --owntracks or --home-assistant, not both") }
            if case .failure(let error) = request.output(secret: "-", at: Timestamp(nanosecondsSince1970: 0)) {
                let option = ["name": "name", "url": mqtt == nil ? "--webhook" : "--mqtt", "kinds": "--kind", "keepSeconds": "--keep", "format": owntracks ? "--owntracks" : "--home-assistant",
                              "locationSeconds": "--location-seconds"][error.field] ?? error.field
                throw ValidationError("\(option): \(error.message)")
            }
        }

        func run() throws {
            let added: OutputStatus
            switch try CommandTarget(store) {
            case .daemon(let client):
                let answer = try RegionsCommand.call(client, "POST", "/v1/outputs", body: Array(try JSONEncoder().encode(request)))
                added = try DevicesCommand.decode(OutputStatus.self, answer, answering: "POST /v1/outputs")
            case .store(let database):
                let now = Timestamp(secondsSince1970: Date().timeIntervalSince1970)
                let output = try request.output(secret: DeviceSecret.generate().text, at: now).get()
                added = OutputStatus(try database.addOutput(output), showSecret: true)
            }
            print("output '\(added.name)' → \(added.url)")
            // An MQTT output signs nothing: the broker authenticates Waymark.
            guard added.kind == "webhook" else { return }
            print("secret: \(added.secret ?? "-")")
            print("Shown once. The receiver checks each request's Waymark-Signature header with it (docs/outputs.md).")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Each output: its receiver, filter, progress and (from a running daemon) activity.")

        @Flag(help: "One JSON object per line.")
        var json = false

        @OptionGroup var store: RegionsCommand.StoreOptions

        func run() throws {
            let outputs: [OutputStatus]
            switch try CommandTarget(store) {
            case .daemon(let client):
                let answer = try RegionsCommand.call(client, "GET", "/v1/outputs")
                outputs = try DevicesCommand.decode(OutputList.self, answer, answering: "GET /v1/outputs").outputs
            case .store(let database):
                outputs = try database.outputs().map { OutputStatus($0) }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for output in outputs {
                if json {
                    print(String(decoding: try encoder.encode(output), as: UTF8.self))
                    continue
                }
                var line = "\(output.name)\t\(output.kind)\(output.format == "cloudevents" ? "" : " (\(output.format))") \(output.url)\tkinds \(output.kinds.joined(separator: ","))"
                if !output.regions.isEmpty { line += "\tregions \(output.regions.joined(separator: ","))" }
                if !output.devices.isEmpty { line += "\tdevices \(output.devices.joined(separator: ","))" }
                line += "\tthrough event \(output.deliveredThrough)"
                if let activity = output.activity {
                    line += "\tdelivered \(activity.delivered), failed attempts \(activity.failedAttempts), given up \(activity.deadLettered)"
                    if let error = activity.lastError { line += "\tlast error: \(error)" }
                }
                if let disabled = output.disabled { line += "\tSTOPPED: \(disabled)" }
                print(line)
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove outputs (and what they gave up on).")

        @Argument(help: "Output names.")
        var names: [String]

        @OptionGroup var store: RegionsCommand.StoreOptions

        func run() throws {
            let target = try CommandTarget(store)
            for name in names {
                let removed = switch target {
                case .daemon(let client): try DevicesCommand.call(client, "DELETE", path: "/v1/outputs/\(DevicesCommand.escaped(name))") != nil
                case .store(let database): try database.removeOutput(named: name)
                }
                guard removed else { throw CommandError("no output named '\(name)'") }
                print("removed output '\(name)'")
            }
        }
    }

    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The events an output gave up on after its keep time (its dead letters), oldest first, from the database.")

        @Argument(help: "The output's name.")
        var name: String

        @OptionGroup var store: RegionsCommand.StoreOptions

        func run() throws {
            let database = try store.open()
            guard try database.output(named: name) != nil else { throw CommandError("no output named '\(name)'") }
            for letter in try database.deadLetters(output: name) {
                print("event \(letter.sequence)\tgiven up \(letter.failed.rfc3339)\t\(letter.error)")
            }
        }
    }

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send the output one test event now (type org.waymark.test), signed like the others, and print the receiver's answer.")

        @Argument(help: "The output's name.")
        var name: String

        @OptionGroup var store: RegionsCommand.StoreOptions

        func run() async throws {
            let result: OutputTestResult
            switch try CommandTarget(store) {
            case .daemon(let client):
                result = try OutputsCommand.post(client, "test", output: name, answer: OutputTestResult.self)
            case .store(let database):
                guard let output = try await database.offPool({ try $0.output(named: name) }) else { throw CommandError("no output named '\(name)'") }
                let (delivered, answer) = await OutputTester.test(output)
                result = OutputTestResult(output: name, delivered: delivered, answer: answer)
            }
            print("\(result.output): \(result.answer)")
            if !result.delivered { throw ExitCode(1) }
        }
    }

    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Try the events an output gave up on again (before its new ones), oldest first.")

        @Argument(help: "The output's name.")
        var name: String

        @OptionGroup var store: RegionsCommand.StoreOptions

        func run() throws {
            let count: Int
            switch try CommandTarget(store) {
            case .daemon(let client):
                count = try OutputsCommand.post(client, "retry", output: name, answer: OutputRetryResult.self).requeued
            case .store(let database):
                guard try database.output(named: name) != nil else { throw CommandError("no output named '\(name)'") }
                count = try database.requeueDeadLetters(output: name)
            }
            print("\(name): \(count) event\(count == 1 ? "" : "s") queued again")
        }
    }
}
