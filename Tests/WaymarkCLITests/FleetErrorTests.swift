import Foundation
import Testing
import WaymarkTestSupport

/// Fleet commands given bad settings, or servers that are not there, say what is wrong and
/// exit non-zero, without hanging.
@Suite struct FleetErrorTests {
    func fails(_ arguments: [String], saying expected: String) async throws {
        let result = try await runWaymark(arguments)
        #expect(result.status != 0, "waymark \(arguments) succeeded")
        #expect(result.stderr.contains(expected), "waymark \(arguments): \(result.stderr)")
    }

    @Test func badSettingsAreNamed() async throws {
        try await fails(["serve", "--fleet"], saying: "--fleet needs --role ingest, worker, output or api")
        try await fails(["serve", "--fleet", "--role", "output", "--partitions", "4"], saying: "output nodes read every partition")
        try await fails(["serve", "--role", "worker"], saying: "--role needs --fleet")
        try await fails(["serve", "--fleet", "--role", "planner"], saying: "planner")
        try await fails(["serve", "--fleet", "--role", "worker", "--db", "x.sqlite"], saying: "the single daemon's options do not apply")
        try await fails(["serve", "--fleet", "--role", "worker", "--partitions", "0"], saying: "--partitions must be 1…4096")
        try await fails(
            ["serve", "--fleet", "--role", "worker", "--postgres", "mysql://a@b/c", "--nats", "nats://127.0.0.1:4222"],
            saying: "is not a postgres://USER@HOST:PORT/DATABASE URL")
        try await fails(
            ["serve", "--fleet", "--role", "worker", "--postgres", "postgres://127.0.0.1/waymark", "--nats", "nats://127.0.0.1:4222"],
            saying: "names no user")
        try await fails(["fleet", "status", "--postgres", "postgres://w@127.0.0.1:5/"], saying: "names no database")
        try await fails(["fleet", "import", "--postgres", "postgres://w@127.0.0.1:5/w"], saying: "nothing to import")
        try await fails(["fleet", "import", "--db", "/nonexistent/w.sqlite", "--postgres", "postgres://w@127.0.0.1:5/w"], saying: "/nonexistent/w.sqlite: no such file")
    }

    @Test func serversThatAreNotThereAreNamed() async throws {
        let closed = try freeLoopbackPort()
        try await fails(
            ["fleet", "status", "--postgres", "postgres://waymark@127.0.0.1:\(closed)/waymark", "--nats", "nats://127.0.0.1:\(closed)"],
            saying: "postgres://waymark@127.0.0.1:\(closed)/waymark")
        let servers = try await FleetServers.start()
        do {
            try await fails(
                ["serve", "--fleet", "--role", "worker", "--postgres", servers.postgresURL, "--nats", "nats://127.0.0.1:\(closed)", "--partitions", "4"],
                saying: "127.0.0.1:\(closed)")
            let wrongDatabase = String(servers.postgresURL.dropLast("waymark".count)) + "nowhere"
            try await fails(["fleet", "status", "--postgres", wrongDatabase, "--nats", servers.natsURL], saying: #"database "nowhere" does not exist"#)
            // The count is now 4: another asks for 8.
            try await fails(
                ["serve", "--fleet", "--role", "ingest", "--postgres", servers.postgresURL, "--nats", servers.natsURL, "--partitions", "8"],
                saying: "has 4 partitions")
        } catch {
            try? await servers.stop()
            throw error
        }
        try await servers.stop()
    }
}
