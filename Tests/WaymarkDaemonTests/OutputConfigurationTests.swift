import Foundation
import Logging
import Testing
import WaymarkCore
import WaymarkOutputs
import WaymarkStore
import WaymarkTestSupport

@testable import WaymarkDaemon

/// The `outputs` section of the configuration (docs/outputs.md), and how it meets the store.
@Suite struct OutputConfigurationTests {
    private let defaults = DaemonConfiguration(database: "w.sqlite", socketPath: "api.sock")

    @Test func anOutputReadsItsSecretFromAFileAndItsFilter() throws {
        let directory = try TemporaryDirectory()
        let secret = try directory.writeSecret("hub-secret", "s3cret\nignored\n")
        let yaml = """
            outputs:
              hub:
                webhook: https://hub.example/waymark
                secret_file: \(secret)
                regions: [home, office]
                kinds: region
                keep_seconds: 3600
            """
        let outputs = try DaemonConfiguration.parse(yaml: yaml, file: "waymark.yaml", over: defaults).outputs
        #expect(outputs.count == 1)
        let hub = try #require(outputs.first)
        #expect(hub.name == "hub" && hub.kind == .webhook(url: "https://hub.example/waymark") && hub.secret == "s3cret")
        #expect(hub.filter == OutputFilter(regions: ["home", "office"], devices: [], kinds: [.region]))
        #expect(hub.keepSeconds == 3600)
    }

    @Test func anMQTTOutputNeedsNoSecretFile() throws {
        let yaml = """
            outputs:
              broker:
                mqtt: mqtt://127.0.0.1:1883/waymark/{device}
                kinds: [region, visit]
              ot:
                mqtt: mqtt://127.0.0.1/owntracks
                format: owntracks
              ha:
                mqtt: mqtt://127.0.0.1/waymark
                format: homeassistant
                location_seconds: 0

            """
        let outputs = try DaemonConfiguration.parse(yaml: yaml, file: "waymark.yaml", over: defaults).outputs
        let broker = try #require(outputs.first { $0.name == "broker" })
        #expect(broker.kind == .mqtt(url: "mqtt://127.0.0.1:1883/waymark/{device}") && broker.filter.kinds == [.region, .visit])
        #expect(broker.format == .cloudEvents)
        let ownTracks = try #require(outputs.first { $0.name == "ot" })
        #expect(ownTracks.format == .ownTracks && ownTracks.locationSeconds == Output.defaultLocationSeconds)
        let homeAssistant = try #require(outputs.first { $0.name == "ha" })
        #expect(homeAssistant.format == .homeAssistant && homeAssistant.locationSeconds == 0)
    }

    @Test(arguments: [
        ("outputs:\n  broker:\n    mqtt: mqtt://h/a/#\n", "outputs.broker.mqtt: the topic must be non-empty and without the wildcards"),
        ("outputs:\n  hub:\n    webhook: https://x/\n    secret_file: SECRET\n    format: owntracks\n", "outputs.hub.format: owntracks is for MQTT outputs"),
        ("outputs:\n  ha:\n    mqtt: mqtt://h/t\n    format: xml\n", "outputs.ha.format: expected cloudevents, owntracks or homeassistant"),
        ("outputs:\n  ha:\n    mqtt: mqtt://h/{device}\n    format: homeassistant\n", "outputs.ha.mqtt: homeassistant publishes under a base topic"),
        ("outputs:\n  ha:\n    mqtt: mqtt://h/t\n    format: owntracks\n    location_seconds: -1\n", "waymark.yaml:5:23: outputs.ha.location_seconds"),
        ("outputs:\n  ha:\n    mqtt: mqtt://h/t\n    location_seconds: 5\n", "outputs.ha.location_seconds: only owntracks and homeassistant outputs publish positions"),
        ("outputs:\n  hub:\n    secret_file: /nonexistent\n", "waymark.yaml:3:18: outputs.hub.secret_file: cannot use '/nonexistent' as a secret: cannot read the file"),
        ("outputs:\n  hub:\n    webhook: ftp://x/\n    secret_file: SECRET\n", "outputs.hub.webhook: expected an http:// or https:// URL"),
        ("outputs:\n  hub:\n    webhook: https://x/\n", "outputs.hub.secret_file: missing"),
        ("outputs:\n  hub:\n    webhook: https://x/\n    secret_file: SECRET\n    kinds: [nope]\n", "outputs.hub.kinds: unknown kind 'nope'"),
        ("outputs:\n  hub:\n    webhook: https://x/\n    secret_file: SECRET\n    topic: x\n", "waymark.yaml:5:5: outputs.hub.topic: unknown key"),
        ("outputs:\n  a/b:\n    webhook: https://x/\n    secret_file: SECRET\n", "outputs.a/b.name"),
    ])
    func badOutputsNameTheKeyAndLine(yaml: String, expected: String) throws {
        let directory = try TemporaryDirectory()
        let secret = try directory.writeSecret("secret", "s\n")
        do {
            _ = try DaemonConfiguration.parse(yaml: yaml.replacingOccurrences(of: "SECRET", with: secret), file: "waymark.yaml", over: defaults)
            Issue.record("accepted \(yaml)")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }

    @Test func aConfiguredOutputUpdatesTheStoredOneAndKeepsItsProgress() throws {
        let store = try WaymarkStore.temporary(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let first = Output(name: "hub", kind: .webhook(url: "https://a.example/"), secret: "one", createdAt: Timestamp(secondsSince1970: 0))
        try store.saveConfiguredOutput(first)
        try store.setOutputCursor("hub", deliveredThrough: 42)
        var changed = first
        changed.kind = .webhook(url: "https://b.example/")
        changed.secret = "two"
        changed.filter = OutputFilter(kinds: [.visit])
        try store.saveConfiguredOutput(changed)
        let stored = try #require(try store.output(named: "hub"))
        #expect(stored.kind == .webhook(url: "https://b.example/") && stored.secret == "two" && stored.filter.kinds == [.visit])
        #expect(stored.deliveredThrough == 42)
    }
}
