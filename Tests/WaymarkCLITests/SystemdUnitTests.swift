import Foundation
import Testing
import WaymarkTestSupport

/// The shipped systemd unit and its drop-ins (packaging/): valid for systemd, and as exposed as
/// docs/reliability.md says.
@Suite struct SystemdUnitTests {
    static let analyze = URL(fileURLWithPath: "/usr/bin/systemd-analyze")

    /// The unit with ExecStart on the built binary (verify wants an executable there), and,
    /// when asked, the drop-ins beside it.
    static func install(in directory: TemporaryDirectory, dropIns: Bool) throws -> String {
        let packaging = ProjectPaths.repositoryRoot.appendingPathComponent("packaging")
        var unit = try String(contentsOf: packaging.appendingPathComponent("waymark.service"), encoding: .utf8)
        unit = unit.replacingOccurrences(of: "ExecStart=/usr/local/bin/waymark", with: "ExecStart=\(ProjectPaths.waymarkExecutable.path)")
        let path = try directory.write("waymark.service", unit)
        if dropIns {
            try FileManager.default.createDirectory(atPath: directory.path("waymark.service.d"), withIntermediateDirectories: true)
            for name in ["bluetooth.conf", "network.conf"] {
                try FileManager.default.copyItem(
                    atPath: packaging.appendingPathComponent("waymark.service.d/\(name)").path, toPath: directory.path("waymark.service.d/\(name)"))
            }
        }
        return path
    }

    @Test(arguments: [false, true]) func verifiesAndIsExposedAsDocumented(dropIns: Bool) async throws {
        let directory = try TemporaryDirectory()
        let unit = try Self.install(in: directory, dropIns: dropIns)
        let verified = try await runProcess(Self.analyze, ["verify", unit])
        #expect(verified.status == 0 && verified.stdout.isEmpty && verified.stderr.isEmpty, "\(verified.stdout)\(verified.stderr)")
        let security = try await runProcess(Self.analyze, ["security", "--offline=yes", unit])
        let line = try #require(security.stdout.split(separator: "\n").last { $0.contains("Overall exposure level") }, "\(security.stdout)\(security.stderr)")
        let exposure = try #require(line.split(separator: " ").compactMap { Double($0) }.first, "\(line)")
        #expect(exposure <= (dropIns ? 2.0 : 1.5), "\(line)")
        if dropIns {
            #expect(security.stdout.contains("AF_BLUETOOTH") || security.stdout.contains("RestrictAddressFamilies"), "\(security.stdout)")
        }
    }
}
