import Testing
import WaymarkDaemon

/// `api.group` (docs/configuration.md): a group of this system by name or number, checked when
/// the file is read.
@Suite struct APIGroupConfigurationTests {
    private let defaults = DaemonConfiguration(database: "w.sqlite", socketPath: "api.sock")

    private func parse(_ yaml: String) throws(ConfigurationError) -> DaemonConfiguration {
        try DaemonConfiguration.parse(yaml: yaml, file: "waymark.yaml", over: defaults)
    }

    @Test func aGroupIsReadByNameOrNumber() throws {
        #expect(defaults.apiGroup == nil)
        #expect(try parse("api:\n  group: root\n").apiGroup == 0)
        #expect(try parse("api:\n  group: 4242\n").apiGroup == 4242)
    }

    @Test func aGroupTheSystemDoesNotKnowIsALocatedError() {
        #expect(throws: ConfigurationError(
            file: "waymark.yaml", line: 3, column: 10, key: "api.group", message: "no group named 'no-such-group-here' on this system"
        )) {
            _ = try parse("api:\n  socket: a.sock\n  group: no-such-group-here\n")
        }
        #expect(throws: ConfigurationError.self) { _ = try parse("api:\n  group: ''\n") }
    }
}
