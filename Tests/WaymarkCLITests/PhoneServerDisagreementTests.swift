import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// A phone's own region reports beside the server's decisions on its fixes (issue 38, item 5;
/// docs/devices.md, "Phone and server side by side"), with a real daemon fed OwnTracks messages
/// over HTTP: `waymark explain --device` and `GET /v1/devices/{name}/disagreements` list what one
/// side has and the other has not, with the reason; the phone's `acc` and a Traccar client's
/// `accuracy` reach the stored fixes; the daemon counts reports its state contradicts.
@Suite struct PhoneServerDisagreementTests {
    static func rfc3339(_ seconds: Int) -> String { Timestamp(secondsSince1970: Double(seconds)).rfc3339 }

    static func transition(_ event: String, desc: String, rid: String?, at seconds: Int) -> String {
        let rid = rid.map { #","rid":"\#($0)""# } ?? ""
        return #"{"_type":"transition","event":"\#(event)","desc":"\#(desc)"\#(rid),"lat":47.0,"lon":8.0,"tst":\#(seconds),"wtst":1700000000,"acc":5,"t":"c","tid":"ph"}"#
    }

    @Test func theDisagreementsOfAPhoneAreListedWithTheirReasons() async throws {
        let rig = try await NetworkDevicesTests.Rig.start()
        try await rig.daemon.whileRunning {
            let start = Int(Date().timeIntervalSince1970) - 900
            let bearer = ["Authorization: Bearer \(rig.phoneSecret)"]
            // Outside the plaza (100 m around 47.0, 8.0), then resting inside it for two minutes.
            let path = [47.002, 47.0, 47.0001, 47.0, 47.0001, 47.0]
            for (index, latitude) in path.enumerated() {
                let time = start + index * 30
                let location = #"{"_type":"location","lat":\#(latitude),"lon":8.0,"tst":\#(time),"acc":7,"t":"u","tid":"ph"}"#
                let sent = try await rig.ownTracks(location, bearer)
                #expect(sent.status == 200, "\(sent.body)")
                let tracker = try await rig.curl(
                    "/v1/osmand?id=tracker&lat=\(latitude)&lon=8.0&timestamp=\(time)&accuracy=9&token=\(rig.trackerSecret)")
                #expect(tracker.status == 200, "\(tracker.body)")
            }
            // The phone agrees on the entry, then reports an exit while the server holds it inside,
            // and an entry of a region of its own the server does not have.
            for message in [
                Self.transition("enter", desc: "Plaza", rid: "plaza", at: start + 45),
                Self.transition("leave", desc: "Plaza", rid: "plaza", at: start + 140),
                Self.transition("enter", desc: "Gym", rid: nil, at: start + 150),
            ] {
                let sent = try await rig.ownTracks(message, bearer)
                #expect(sent.status == 200, "\(sent.body)")
            }
            let fixes = try await rig.history(["--device", "phone", "--kind", "fix"])
            #expect(fixes.count == path.count && fixes.allSatisfy { $0.contains(#""horizontalAccuracy":7,"#) }, "\(fixes)")
            let trackerFixes = try await rig.history(["--device", "tracker", "--kind", "fix"])
            #expect(trackerFixes.count == path.count && trackerFixes.allSatisfy { $0.contains(#""horizontalAccuracy":9,"#) })
            let serverEnters = try await rig.history(["--device", "phone", "--kind", "event"]).filter {
                $0.hasPrefix(#"{"kind":"region","transition":"enter","region":"plaza""#)
            }
            #expect(serverEnters.count == 1, "\(serverEnters)")

            let from = Self.rfc3339(start - 60)
            let to = Self.rfc3339(start + 600)
            let explained = try await runWaymark(["explain", "--device", "phone", "--from", from, "--to", to, "--db", rig.db])
            #expect(explained.status == 0, "\(explained.stderr)")
            let lines = explained.stdoutLines
            #expect(lines.count == 3, "\(explained.stdout)")
            #expect(lines.first?.hasPrefix(
                #"{"kind":"disagreement","side":"phone","reason":"serverHeld","region":"plaza","transition":"exit","time":"\#(Self.rfc3339(start + 140))","id":"#) == true,
                "\(explained.stdout)")
            #expect(lines.dropFirst().first?.hasPrefix(
                #"{"kind":"disagreement","side":"phone","reason":"unknownRegion","region":"Gym","transition":"enter","#) == true,
                "\(explained.stdout)")
            #expect(lines.last == #"{"kind":"summary","device":"phone","from":"\#(from)","to":"\#(to)","toleranceSeconds":300,"agreed":1,"disagreements":2,"byReason":{"serverLater":0,"serverEarlier":0,"unknownRegion":1,"notReported":0,"serverHeld":1}}"#)

            // The API gives the same, as one object.
            let socket = rig.directory.path("api.sock")
            let curl = URL(fileURLWithPath: "/usr/bin/curl")
            let answer = try await runProcess(
                curl, ["-s", "--unix-socket", socket, "http://localhost/v1/devices/phone/disagreements?from=\(from)&to=\(to)"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any], "\(answer.stdout)")
            #expect(object["agreed"] as? Int == 1)
            let listed = try #require(object["disagreements"] as? [[String: Any]])
            #expect(listed.compactMap { $0["reason"] as? String } == ["serverHeld", "unknownRegion"])
            // …valid against the document's schema (python3-yaml and python3-jsonschema, as the
            // OpenAPI conformance test; its fake daemon answers this route with 404 only).
            let answerFile = try rig.directory.write("answer.json", answer.stdout)
            let validated = try await runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [
                "-c",
                "import json, sys, yaml, jsonschema; spec = yaml.safe_load(open(sys.argv[1])); "
                    + "jsonschema.validate(json.load(open(sys.argv[2])), spec['components']['schemas']['Disagreements'])",
                ProjectPaths.repositoryRoot.appendingPathComponent("docs/openapi.yaml").path, answerFile,
            ])
            #expect(validated.status == 0, "\(validated.stderr)")
            // Within a tolerance of 10 s the phone's entry, 45 s after it set out, no longer agrees.
            let strict = try await runWaymark(
                ["explain", "--device", "phone", "--from", from, "--to", to, "--tolerance", "10", "--db", rig.db])
            #expect(strict.stdoutLines.last?.contains(#""agreed":0,"#) == true, "\(strict.stdout)")
            // The daemon counted, as they arrived, the two reports its state contradicted.
            let metrics = try await runProcess(curl, ["-s", "--unix-socket", socket, "http://localhost/metrics"])
            #expect(metrics.stdoutLines.contains(#"waymark_device_reported_region_disagreements_total{device="phone"} 2"#), "\(metrics.stdout)")
            let unknown = try await runProcess(
                curl, ["-s", "-w", "\n%{http_code}", "--unix-socket", socket, "http://localhost/v1/devices/nobody/disagreements?from=\(from)&to=\(to)"])
            #expect(unknown.stdoutLines.last == "404", "\(unknown.stdout)")
        }
    }
}
