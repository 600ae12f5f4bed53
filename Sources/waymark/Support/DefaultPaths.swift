import Foundation

/// Where Waymark keeps its files when no flag says otherwise (XDG Base Directory spec).
enum DefaultPaths {
    /// `$XDG_DATA_HOME/waymark/waymark.sqlite`, else `~/.local/share/waymark/waymark.sqlite`;
    /// the folder is created on first use.
    static func database() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.local/share")
        let folder = base + "/waymark"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder + "/waymark.sqlite"
    }
}
