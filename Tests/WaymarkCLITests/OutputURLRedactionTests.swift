import Foundation
import Testing
import WaymarkTestSupport

/// `outputs add` and `outputs list` never print the credentials in an output's URL; deliveries
/// still use them (the database keeps the URL as given).
@Suite struct OutputURLRedactionTests {
    @Test func listingsMaskPasswordsAndSecretQueryParameters() async throws {
        let directory = try TemporaryDirectory()
        let db = directory.path("w.sqlite")
        let added = try await runWaymark(["outputs", "add", "hub", "--webhook", "https://alice:hunter2@hub.example/w?token=t0ken&room=7", "--db", db])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("output 'hub' → https://alice:***@hub.example/w?token=***&room=7"), "\(added.stdout)")
        let broker = try await runWaymark(["outputs", "add", "broker", "--mqtt", "mqtt://waymark:s3cret@127.0.0.1:1883/w/{device}", "--db", db])
        #expect(broker.status == 0, "\(broker.stderr)")
        for arguments in [["outputs", "list", "--db", db], ["outputs", "list", "--json", "--db", db]] {
            let listed = try await runWaymark(arguments)
            #expect(listed.stdout.contains("https://alice:***@hub.example/w?token=***&room=7"), "\(listed.stdout)")
            #expect(listed.stdout.contains("mqtt://waymark:***@127.0.0.1:1883/w/{device}"), "\(listed.stdout)")
            #expect(!listed.stdout.contains("hunter2") && !listed.stdout.contains("t0ken") && !listed.stdout.contains("s3cret"), "\(listed.stdout)")
        }
        let stored = try await runPython(
            "import sqlite3, sys\nprint(sqlite3.connect(sys.argv[1]).execute(\"SELECT target FROM outputs WHERE name = 'hub'\").fetchone()[0])", [db])
        #expect(stored.stdoutLines == ["https://alice:hunter2@hub.example/w?token=t0ken&room=7"], "the receiver still gets its credentials")
    }
}
