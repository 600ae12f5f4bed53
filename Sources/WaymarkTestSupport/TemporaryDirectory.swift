import Foundation

/// A fresh directory under the system's temporary folder, removed when the value is released.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init(prefix: String = "waymark-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `contents` to a file inside the directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ contents: String) throws -> String {
        let path = path(name)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A file only its owner may read (mode 0600), as Waymark requires of a secret's file.
    @discardableResult
    public func writeSecret(_ name: String, _ contents: String) throws -> String {
        let path = try write(name, contents)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        return path
    }

    @discardableResult
    public func write(_ name: String, bytes: [UInt8]) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
