import Foundation
import Testing
import WaymarkCore
import WaymarkOutputs

@Suite struct HomeAssistantFormatTests {
    static func object(_ payload: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
    }

    @Test func objectIDsAreSafeAndDistinct() {
        #expect(HomeAssistantFormat.objectID("phone_2") == "phone_2")
        let upper = HomeAssistantFormat.objectID("Home")
        #expect(upper.hasPrefix("_ome_") && upper.count == 4 + 1 + 8)
        #expect(HomeAssistantFormat.objectID("a/b") != HomeAssistantFormat.objectID("a_b"))
        #expect(HomeAssistantFormat.objectID("a/b").allSatisfy { $0.isLetter && $0.isLowercase || $0.isNumber || $0 == "_" })
        #expect(HomeAssistantFormat.objectID("+#") != "__")
    }

    @Test func aTrackerDiscoveryNamesItsAttributesTopic() throws {
        let message = HomeAssistantFormat.trackerDiscovery(device: "phone", base: "waymark")
        #expect(message.topic == "homeassistant/device_tracker/waymark_phone/config")
        let config = try Self.object(message.payload)
        #expect(config["unique_id"] as? String == "waymark_phone" && config["source_type"] as? String == "gps")
        #expect(config["json_attributes_topic"] as? String == "waymark/device/phone/location")
        let device = try #require(config["device"] as? [String: Any])
        #expect(device["identifiers"] as? [String] == ["waymark_phone"] && device["name"] as? String == "phone")
    }

    @Test func aPresenceSensorAndItsStates() throws {
        let message = HomeAssistantFormat.presenceDiscovery(region: "Front door", name: "Front door", base: "waymark")
        let id = HomeAssistantFormat.objectID("Front door")
        #expect(message.topic == "homeassistant/binary_sensor/waymark_region_\(id)/config")
        let config = try Self.object(message.payload)
        #expect(config["device_class"] as? String == "presence" && config["name"] as? String == "Front door")
        #expect(config["state_topic"] as? String == "waymark/region/\(id)/state")
        #expect(config["payload_on"] as? String == "ON" && config["payload_off"] as? String == "OFF")
        let inside = HomeAssistantFormat.presence(region: "Front door", devicesInside: ["tracker", "phone"], base: "waymark")
        #expect(inside[0] == HomeAssistantFormat.Message(topic: "waymark/region/\(id)/state", payload: "ON"))
        #expect(try Self.object(inside[1].payload)["devices"] as? [String] == ["phone", "tracker"])
        #expect(HomeAssistantFormat.presence(region: "Front door", devicesInside: [], base: "waymark")[0].payload == "OFF")
    }

    @Test func aFixIsTheTrackersGPSAttributes() throws {
        let fix = OutputFix(
            sequence: 1, device: "phone", time: Timestamp(secondsSince1970: 1_700_000_000), coordinate: Coordinate(latitude: 46.5, longitude: 7.5),
            accuracy: 3.2)
        let message = HomeAssistantFormat.location(fix, base: "waymark")
        #expect(message.topic == "waymark/device/phone/location")
        let attributes = try Self.object(message.payload)
        #expect(attributes["latitude"] as? Double == 46.5 && attributes["longitude"] as? Double == 7.5 && attributes["gps_accuracy"] as? Int == 4)
    }
}
