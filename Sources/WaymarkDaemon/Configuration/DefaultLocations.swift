import Foundation

/// Where the daemon keeps its files by default: per user under the XDG directories, or the
/// system locations when run as a system service (`--system`).
public enum DefaultLocations {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// `$HOME` as the XDG base-directory rules read it; the password database's home only when
    /// it is unset (Foundation's `NSHomeDirectory()` on Linux ignores `$HOME`).
    static var home: String { environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory() }

    /// `$XDG_DATA_HOME/waymark/waymark.sqlite` (`~/.local/share/…`), or `/var/lib/waymark/waymark.sqlite`.
    public static func database(system: Bool) -> String {
        if system { return "/var/lib/waymark/waymark.sqlite" }
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (home + "/.local/share")
        return base + "/waymark/waymark.sqlite"
    }

    /// `$XDG_RUNTIME_DIR/waymark/api.sock`, or `/run/waymark/api.sock`; without
    /// `XDG_RUNTIME_DIR` (a session not started by a login manager), `api.sock` in
    /// `sharedRuntimeFolder`.
    public static func socket(system: Bool) -> String {
        if system { return "/run/waymark/api.sock" }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/waymark/api.sock" }
        return sharedRuntimeFolder + "/api.sock"
    }

    /// `${TMPDIR:-/tmp}/waymark-UID`, the runtime folder when there is no `XDG_RUNTIME_DIR` (as
    /// tmux does). It sits where every user may create folders, so the daemon uses it only when
    /// it is a directory of this user's that no one else can reach (`PrivateFolder`).
    public static var sharedRuntimeFolder: String {
        let temporary = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        return (temporary.hasSuffix("/") && temporary.count > 1 ? String(temporary.dropLast()) : temporary) + "/waymark-\(geteuid())"
    }

    /// `$XDG_CONFIG_HOME/waymark/waymark.yaml`, or `/etc/waymark/waymark.yaml`.
    public static func configuration(system: Bool) -> String {
        if system { return "/etc/waymark/waymark.yaml" }
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (home + "/.config")
        return base + "/waymark/waymark.yaml"
    }
}
