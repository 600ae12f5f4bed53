import Foundation
import Testing
import WaymarkTestSupport

/// Issue 48, finding 8: one fix dated 2200 became the device's previous fix, so every later real
/// fix went "backwards" and the device's region events stopped until a restart. The gate now
/// drops a fix from the future (docs/semantics.md §2.3) without remembering it.
@Suite struct FutureFixDaemonTests {
    @Test func aFixFrom2200IsDroppedAndTheDevicesRealFixesStillCrossRegions() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        try await rig.daemon.whileRunning {
            let future = try await rig.curl("/v1/osmand?id=tracker&lat=47.01&lon=8&timestamp=2200-01-01T00:00:00Z&token=\(rig.trackerSecret)")
            #expect(future.status == 200, "decoded, then dropped by the gate: \(future.body)")
            // The same over OwnTracks, from the other device.
            let basic = "Authorization: Basic " + Data("alice:\(rig.phoneSecret)".utf8).base64EncodedString()
            let ownTracks = try await rig.ownTracks(
                NetworkDevicesTests.location(latitude: 47.01, longitude: 8, at: 7_258_118_400), ["X-Limit-U: alice", "X-Limit-D: phone", basic])
            #expect(ownTracks.status == 200, "\(ownTracks.body)")
            // Then real fixes, walking into the plaza and out again.
            try await WebhookOutputTests.walk(rig)
            for device in ["tracker", "phone"] {
                let events = try await rig.history(["--device", device, "--kind", "event"])
                #expect(events.filter { $0.contains(#""transition":"enter","region":"plaza""#) }.count == 1, "\(device): \(events)")
                let fixes = try await rig.history(["--device", device, "--kind", "fix"])
                #expect(fixes.count == WebhookOutputTests.path.count, "\(device): the current fixes only: \(fixes)")
                #expect(!fixes.contains { $0.contains("2200-") }, "\(device): the fix from the future is not recorded")
            }
            let status = try await MQTTOutputTests.status(rig)
            #expect(status.contains(#""fixesDropped.fromFuture":1"#), "\(status)")
        }
    }
}
