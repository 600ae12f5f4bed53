import Foundation
import Testing
import WaymarkTestSupport

/// The per-device reads of a real daemon's API (docs/api.md): two phones send OwnTracks
/// locations over HTTP, one ending inside the region and one outside, and
/// `GET /v1/fixes/last?device=` and `GET /v1/regions/{id}/state?device=` answer for each.
@Suite struct DeviceReadsAPITests {
    @Test func lastFixAndRegionStateAnswerForTheDeviceNamed() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        try await rig.daemon.whileRunning {
            let start = Int(Date().timeIntervalSince1970) - 600
            // The phone walks into the plaza and stays; the tracker passes through and leaves.
            let phonePath = [(47.003, 8.0), (47.0005, 8.0), (47.0, 8.0), (47.0001, 8.0), (47.0, 8.0001)]
            let trackerPath = [(47.0, 8.003), (47.0, 8.0005), (47.0, 8.0), (47.0, 8.0015), (47.0, 8.004)]
            let phone = ["X-Limit-U: alice", "X-Limit-D: phone", "Authorization: Basic " + Data("alice:\(rig.phoneSecret)".utf8).base64EncodedString()]
            let tracker = ["X-Limit-U: tracker", "X-Limit-D: tracker", "Authorization: Basic " + Data("tracker:\(rig.trackerSecret)".utf8).base64EncodedString()]
            for index in phonePath.indices {
                let time = start + index * 30
                for (point, headers) in [(phonePath[index], phone), (trackerPath[index], tracker)] {
                    let sent = try await rig.ownTracks(NetworkDevicesTests.location(latitude: point.0, longitude: point.1, at: time), headers)
                    #expect(sent.status == 200, "\(sent.body)")
                }
            }
            let socket = rig.directory.path("api.sock")
            func get(_ path: String) async throws -> (status: Int, object: [String: Any]) {
                let result = try await runProcess(
                    URL(fileURLWithPath: "/usr/bin/curl"),
                    ["--silent", "--max-time", "30", "--unix-socket", socket, "--write-out", "\n%{http_code}", "http://localhost\(path)"])
                var lines = result.stdout.split(separator: "\n").map(String.init)
                let status = Int(lines.popLast() ?? "") ?? -1
                let object = (try? JSONSerialization.jsonObject(with: Data(lines.joined().utf8))) as? [String: Any] ?? [:]
                return (status, object)
            }

            let phoneFix = try await get("/v1/fixes/last?device=phone")
            #expect(phoneFix.status == 200 && phoneFix.object["device"] as? String == "phone", "\(phoneFix)")
            #expect(phoneFix.object["longitude"] as? Double == 8.0001)
            let trackerFix = try await get("/v1/fixes/last?device=tracker")
            #expect(trackerFix.status == 200 && trackerFix.object["device"] as? String == "tracker", "\(trackerFix)")
            #expect(trackerFix.object["longitude"] as? Double == 8.004)
            // `local`, the receiver (no gpsd here), has recorded no fix; a stranger is not known.
            let local = try await get("/v1/fixes/last")
            #expect(local.status == 404 && (local.object["error"] as? [String: Any])?["code"] as? String == "no-fix", "\(local)")
            let ghost = try await get("/v1/fixes/last?device=ghost")
            #expect(ghost.status == 404 && (ghost.object["error"] as? [String: Any])?["code"] as? String == "no-device", "\(ghost)")

            let phoneState = try await get("/v1/regions/plaza/state?device=phone")
            #expect(phoneState.status == 200 && phoneState.object["state"] as? String == "inside", "\(phoneState)")
            let trackerState = try await get("/v1/regions/plaza/state?device=tracker")
            #expect(trackerState.status == 200 && trackerState.object["state"] as? String == "outside", "\(trackerState)")
            let localState = try await get("/v1/regions/plaza/state")
            #expect(localState.status == 200 && localState.object["state"] as? String == "unknown", "\(localState)")
            let ghostState = try await get("/v1/regions/plaza/state?device=ghost")
            #expect(ghostState.status == 404 && (ghostState.object["error"] as? [String: Any])?["code"] as? String == "no-device", "\(ghostState)")
        }
    }
}
