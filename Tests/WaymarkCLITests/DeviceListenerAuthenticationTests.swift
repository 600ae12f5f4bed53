import Foundation
import Testing
import WaymarkTestSupport

/// Issue 48, finding 7 and the OwnTracks batch check: the device listener authenticates a request
/// from its head before it reads a byte of its body, and checks every message of a batch
/// (docs/security.md, "Work before authentication").
@Suite struct DeviceListenerAuthenticationTests {
    /// Sends a request head announcing a 60 KB body and never sends the body; prints the status
    /// line of the answer and how long it took, or `timeout`. A listener that waited for the
    /// body would answer only at its 10-second body deadline.
    static let headOnly = """
        import socket, sys, time
        port, target, headers = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
        connection = socket.create_connection(("127.0.0.1", port))
        head = "POST %s HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nContent-Type: application/json\\r\\nContent-Length: 60000\\r\\n" % target
        head += "".join(h + "\\r\\n" for h in headers) + "\\r\\n"
        started = time.monotonic()
        connection.sendall(head.encode())
        connection.settimeout(8)
        try:
            answer = connection.recv(4096).decode(errors="replace")
            print(answer.split("\\r\\n")[0], round(time.monotonic() - started, 2))
        except socket.timeout:
            print("timeout")
        """

    @Test func aRequestWithoutValidCredentialsIsRefusedBeforeItsBodyIsRead() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        try await rig.daemon.whileRunning {
            let cases: [(String, [String])] = [
                ("/v1/owntracks", []),
                ("/v1/owntracks", ["Authorization: Bearer not-a-secret"]),
                ("/v1/owntracks", ["X-Limit-D: phone", "Authorization: Basic " + Data("alice:wrong".utf8).base64EncodedString()]),
                ("/v1/osmand", []),
                ("/v1/osmand?id=tracker&token=wrong", []),
            ]
            for (target, headers) in cases {
                let answer = try await runPython(Self.headOnly, ["\(rig.port)", target] + headers)
                let words = answer.stdout.split(separator: " ")
                #expect(answer.stdout.hasPrefix("HTTP/1.1 401"), "\(target) \(headers): \(answer.stdout) \(answer.stderr)")
                #expect((Double(words.last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 99) < 5, "\(target): \(answer.stdout)")
            }
            // A device that proves itself in its head is read as before.
            let time = Int(Date().timeIntervalSince1970) - 60
            let sent = try await rig.ownTracks(
                NetworkDevicesTests.location(latitude: 47.3, longitude: 8.5, at: time), ["Authorization: Bearer \(rig.phoneSecret)"])
            #expect(sent.status == 200, "\(sent.body)")
        }
    }

    @Test func aDeviceNamedOnlyInTheBodyIsStillServed() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        try await rig.daemon.whileRunning {
            let time = Int(Date().timeIntervalSince1970) - 60
            // The Basic user is the person (alice), the device only in the message's topic.
            let basic = "Authorization: Basic " + Data("alice:\(rig.phoneSecret)".utf8).base64EncodedString()
            let sent = try await rig.ownTracks(
                NetworkDevicesTests.location(latitude: 47.3, longitude: 8.5, at: time, topic: "owntracks/alice/phone"), [basic])
            #expect(sent.status == 200, "\(sent.body)")
            #expect(try await rig.history(["--device", "phone", "--kind", "fix"]).count == 1)
        }
    }

    @Test func everyMessageOfABatchMustNameTheAuthenticatedDeviceAndUser() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        try await rig.daemon.whileRunning {
            let time = Int(Date().timeIntervalSince1970) - 120
            let bearer = ["Authorization: Bearer \(rig.phoneSecret)"]
            let mine = NetworkDevicesTests.location(latitude: 47.3, longitude: 8.5, at: time, topic: "owntracks/alice/phone")
            for smuggled in ["owntracks/alice/tracker", "owntracks/bob/phone"] {
                let other = NetworkDevicesTests.location(latitude: 47.3, longitude: 8.5, at: time + 10, topic: smuggled)
                let sent = try await rig.ownTracks("[\(mine),\(other)]", bearer)
                #expect(sent.status == 403, "\(smuggled): \(sent.status) \(sent.body)")
            }
            #expect(try await rig.history(["--device", "phone"]).isEmpty, "a refused batch stored something")
            #expect(try await rig.history(["--device", "tracker"]).isEmpty, "a refused batch stored something")
        }
    }
}
