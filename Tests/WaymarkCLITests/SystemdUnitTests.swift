import Foundation
import Testing
import WaymarkTestSupport

/// The shipped systemd unit and its drop-ins (packaging/): valid for systemd, and as exposed as
/// docs/reliability.md says.
@Suite struct SystemdUnitTests {
    static let analyze = URL(fileURLWithPath: "/usr/bin/systemd-analyze")

    /// The unit with ExecStart on the built binary (verify wants an executable there), and the
    /// drop-ins named beside it.
    static func install(in directory: TemporaryDirectory, dropIns: [String]) throws -> String {
        let packaging = ProjectPaths.repositoryRoot.appendingPathComponent("packaging")
        var unit = try String(contentsOf: packaging.appendingPathComponent("waymark.service"), encoding: .utf8)
        unit = unit.replacingOccurrences(of: "ExecStart=/usr/local/bin/waymark", with: "ExecStart=\(ProjectPaths.waymarkExecutable.path)")
        let path = try directory.write("waymark.service", unit)
        if !dropIns.isEmpty {
            try FileManager.default.createDirectory(atPath: directory.path("waymark.service.d"), withIntermediateDirectories: true)
            for name in dropIns {
                try FileManager.default.copyItem(
                    atPath: packaging.appendingPathComponent("waymark.service.d/\(name)").path, toPath: directory.path("waymark.service.d/\(name)"))
            }
        }
        return path
    }

    /// The drop-ins a user may add, and the exposure `systemd-analyze security` gives then.
    static let configurations: [([String], Double)] = [
        ([], 1.5), (["bluetooth.conf", "network.conf"], 2.0), (["bluetooth.conf", "network.conf", "handler-limits.conf"], 2.2),
    ]

    @Test(arguments: configurations) func verifiesAndIsExposedAsDocumented(dropIns: [String], documented: Double) async throws {
        let directory = try TemporaryDirectory()
        let unit = try Self.install(in: directory, dropIns: dropIns)
        let verified = try await runProcess(Self.analyze, ["verify", unit])
        #expect(verified.status == 0 && verified.stdout.isEmpty && verified.stderr.isEmpty, "\(verified.stdout)\(verified.stderr)")
        let security = try await runProcess(Self.analyze, ["security", "--offline=yes", unit])
        let line = try #require(security.stdout.split(separator: "\n").last { $0.contains("Overall exposure level") }, "\(security.stdout)\(security.stderr)")
        let exposure = try #require(line.split(separator: " ").compactMap { Double($0) }.first, "\(line)")
        #expect(exposure <= documented, "\(line)")
        if dropIns.contains("bluetooth.conf") {
            #expect(security.stdout.contains("AF_BLUETOOTH") || security.stdout.contains("RestrictAddressFamilies"), "\(security.stdout)")
        }
    }
}
