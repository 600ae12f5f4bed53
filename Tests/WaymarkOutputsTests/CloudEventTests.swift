import Foundation
import Testing
import WaymarkCore
import WaymarkOutputs

@Suite struct CloudEventTests {
    static let enter = OutputEvent(
        sequence: 42, device: "phone", time: Timestamp(secondsSince1970: 1_700_000_000), kind: .region, region: "home",
        transition: "enter", record: #"{"kind":"region","transition":"enter","region":"home","time":"2023-11-14T22:13:20Z"}"#)

    @Test func theEnvelopeCarriesTheRecordAsData() throws {
        let json = CloudEvent.json(Self.enter, source: "urn:waymark:pi")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["specversion"] as? String == "1.0")
        #expect(object["type"] as? String == "org.waymark.region.enter")
        #expect(object["source"] as? String == "urn:waymark:pi")
        #expect(object["subject"] as? String == "phone")
        #expect(object["partitionkey"] as? String == "phone")
        #expect(object["sequence"] as? String == "00000000000000000042")
        #expect(object["time"] as? String == "2023-11-14T22:13:20Z")
        #expect((object["data"] as? [String: Any])?["region"] as? String == "home")
        #expect(json.hasSuffix(#""data":\#(Self.enter.record)}"#), "the record byte for byte")
    }

    @Test func theIdIsTheSameForTheSameEventAndDiffersOtherwise() {
        var again = Self.enter
        again.sequence = 43  // redelivered from another row: still the same event
        #expect(CloudEvent.id(of: again) == CloudEvent.id(of: Self.enter))
        #expect(CloudEvent.id(of: Self.enter).count == 32)
        var other = Self.enter
        other.device = "tracker"
        #expect(CloudEvent.id(of: other) != CloudEvent.id(of: Self.enter))
    }

    @Test func kindsWithoutATransitionAreTheirKind() {
        var visit = Self.enter
        visit.kind = .visit
        visit.transition = nil
        #expect(CloudEvent.type(of: visit) == "org.waymark.visit")
    }

    @Test func theFilterChoosesByKindDeviceAndRegion() {
        #expect(OutputFilter().matches(Self.enter))
        #expect(!OutputFilter(kinds: [.visit]).matches(Self.enter))
        #expect(OutputFilter(regions: ["home"], devices: ["phone"]).matches(Self.enter))
        #expect(!OutputFilter(devices: ["tracker"]).matches(Self.enter))
        var noRegion = Self.enter
        noRegion.region = nil
        #expect(!OutputFilter(regions: ["home"], kinds: []).matches(noRegion))
    }

    @Test func namesFollowTheDeviceRules() {
        #expect(Output.problem(withName: "home-assistant_1.x") == nil)
        #expect(Output.problem(withName: "") != nil)
        #expect(Output.problem(withName: "a/b") != nil)
    }
}
