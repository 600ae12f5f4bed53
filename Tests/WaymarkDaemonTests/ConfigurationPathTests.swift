import Testing
@testable import WaymarkDaemon

/// Handlers run in a folder of their own: every path the daemon hands on or keeps open is made
/// absolute against the folder serve started in.
@Suite struct ConfigurationPathTests {
    @Test func relativePathsBecomeAbsoluteAgainstTheStartingFolder() {
        var configuration = DaemonConfiguration(database: "data/w.sqlite", socketPath: "./run/new/api.sock")
        configuration.handlerLogDirectory = "logs"
        configuration.tokenFile = "/etc/waymark/token"
        configuration.regionPaths = ["Regions"]
        let resolved = configuration.withAbsolutePaths(from: "/home/ann/ride")
        #expect(resolved.database == "/home/ann/ride/data/w.sqlite")
        #expect(resolved.socketPath == "/home/ann/ride/run/new/api.sock")
        #expect(resolved.handlerSocketDirectory == "/home/ann/ride/run/new/handlers")
        #expect(resolved.handlerLogDirectory == "/home/ann/ride/logs")
        #expect(resolved.tokenFile == "/etc/waymark/token")
        #expect(resolved.regionPaths == ["Regions"])  // read from here, quoted as given
    }

    @Test func theFoldersToMakeComeParentsFirstWithoutRepeats() {
        var configuration = DaemonConfiguration(database: "/d/w.sqlite", socketPath: "/r/waymark/api.sock")
        #expect(configuration.folders == ["/d", "/r/waymark", "/r/waymark/handlers"])
        configuration.handlerLogDirectory = "/d"
        #expect(configuration.folders == ["/d", "/r/waymark", "/r/waymark/handlers"])
    }

    @Test func aPathAtTheRootOrWithDotsStaysUsable() {
        #expect(DaemonConfiguration.absolute("w.sqlite", from: "/") == "/w.sqlite")
        #expect(DaemonConfiguration.absolute("../w.sqlite", from: "/a/b") == "/a/b/../w.sqlite")
    }
}
