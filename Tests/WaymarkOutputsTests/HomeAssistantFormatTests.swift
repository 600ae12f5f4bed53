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
        #expect(config["state_topic"] as? String == "waymark/device/phone/state")
        #expect(config["payload_home"] as? String == "home" && config["payload_not_home"] as? String == "not_home")
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

    /// The tracker's state is the device's place: the zone's identifier, `home` Home Assistant's
    /// home, `not_home` for none.
    @Test func thePlaceIsTheTrackersState() {
        #expect(HomeAssistantFormat.trackerState(device: "phone", place: "home", base: "waymark") == .init(topic: "waymark/device/phone/state", payload: "home"))
        #expect(HomeAssistantFormat.trackerState(device: "phone", place: "city", base: "waymark").payload == "city")
        #expect(HomeAssistantFormat.trackerState(device: "phone", place: nil, base: "waymark").payload == "not_home")
        let odd = HomeAssistantFormat.trackerState(device: "Anna's phone", place: nil, base: "hass")
        #expect(odd.topic == "hass/device/\(HomeAssistantFormat.objectID("Anna's phone"))/state")
    }

    /// A Home Assistant output is given every place change of its devices, whatever its kinds and
    /// regions; other outputs only what their filter matches.
    @Test func homeAssistantOutputsAreGivenPlaceChanges() {
        func event(_ kind: EventKind, device: String = "phone", region: String? = nil) -> OutputEvent {
            OutputEvent(sequence: 1, device: device, time: Timestamp(secondsSince1970: 1_700_000_000), kind: kind, region: region, record: "{}")
        }
        let filter = OutputFilter(regions: ["home"], devices: ["phone"])
        let hass = Output(name: "hass", kind: .mqtt(url: "mqtt://127.0.0.1/waymark"), format: .homeAssistant, secret: "", filter: filter, createdAt: Timestamp(secondsSince1970: 1_700_000_000))
        #expect(hass.wants(event(.place, region: "city")) && hass.wants(event(.place)))
        #expect(!hass.wants(event(.place, device: "tracker")))
        #expect(!hass.wants(event(.location, region: nil)))
        var hook = hass
        hook.format = .cloudEvents
        #expect(!hook.wants(event(.place, region: "city")))
        hook.filter.kinds = [.place]
        #expect(hook.wants(event(.place, region: "home")) && !hook.wants(event(.place, region: "city")))
    }
}
