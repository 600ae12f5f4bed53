import Foundation
import Testing
import WaymarkTestSupport

@testable import WaymarkDaemon

/// Files holding secrets (the API token, outputs' signing secrets) must be private, as ssh
/// requires of a private key.
@Suite struct SecretFileTests {
    @Test func aPrivateTokenFileIsRead() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.writeSecret("token", "  0123456789abcdef0123  \nignored\n")
        #expect(try APIToken.read(from: path) == "0123456789abcdef0123")
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660]) func aTokenFileOthersMayReadIsRefused(mode: Int) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.writeSecret("token", "0123456789abcdef0123\n")
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        do {
            _ = try APIToken.read(from: path)
            Issue.record("accepted mode \(String(mode, radix: 8))")
        } catch let error as ConfigurationError {
            #expect(error.key == "api.token_file" && error.message.contains("chmod 600 \(path)"), "\(error)")
            #expect(error.message.contains(String(mode, radix: 8)))
        }
    }

    @Test func shortEmptyAndMissingTokensAreRefused() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: ConfigurationError.self) { try APIToken.read(from: try directory.writeSecret("short", "abc\n")) }
        #expect(throws: ConfigurationError.self) { try APIToken.read(from: try directory.writeSecret("empty", "\n")) }
        #expect(throws: ConfigurationError.self) { try APIToken.read(from: directory.path("missing")) }
    }

    @Test func anOutputsSecretFileMustBePrivateToo() throws {
        let directory = try TemporaryDirectory()
        let secret = try directory.write("open-secret", "s3cret\n")
        let yaml = "outputs:\n  hub:\n    webhook: https://x/\n    secret_file: \(secret)\n"
        do {
            _ = try DaemonConfiguration.parse(yaml: yaml, file: "waymark.yaml", over: DaemonConfiguration(database: "w.sqlite", socketPath: "api.sock"))
            Issue.record("accepted a secret file others may read")
        } catch {
            #expect(error.description.contains("waymark.yaml:4:18: outputs.hub.secret_file: cannot use") && error.description.contains("chmod 600"), "\(error)")
        }
    }
}
