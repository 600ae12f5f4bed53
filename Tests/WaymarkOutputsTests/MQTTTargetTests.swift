import Testing
import WaymarkCore
import WaymarkOutputs

@Suite struct MQTTTargetTests {
    @Test func theURLNamesBrokerCredentialsAndTopicTemplate() throws {
        let target = try MQTTTarget.parse("mqtt://waymark:pa:ss@broker.lan:8883/home/{device}/{kind}").get()
        #expect(target == MQTTTarget(host: "broker.lan", port: 8883, username: "waymark", password: "pa:ss", topic: "home/{device}/{kind}"))
        let event = OutputEvent(sequence: 1, device: "phone", time: Timestamp(secondsSince1970: 0), kind: .region, record: "{}")
        #expect(target.topic(for: event) == "home/phone/region")
        #expect(try MQTTTarget.parse("mqtt://127.0.0.1/waymark").get().port == 1883)
        #expect(try MQTTTarget.parse("mqtt://[::1]:1884/w").get() == MQTTTarget(host: "::1", port: 1884, topic: "w"))
    }

    @Test(arguments: [
        ("http://h/t", "expected mqtt://"),
        ("mqtt://h", "expected a topic"),
        ("mqtt://h/", "the topic must be non-empty"),
        ("mqtt://h/a/#", "without the wildcards"),
        ("mqtt://h:0/t", "the port must be 1–65535"),
        ("mqtt://:1883/t", "expected a host"),
    ])
    func badURLsSayWhy(url: String, expected: String) {
        guard case .failure(let error) = MQTTTarget.parse(url) else {
            Issue.record("accepted \(url)")
            return
        }
        #expect(error.field == "url" && error.message.contains(expected), "\(error.message)")
    }
}
