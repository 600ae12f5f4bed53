import Foundation

/// A handler for suspension tests: a shell script that starts a ticker in a session of its own
/// (out of the handler's process group, as a daemonising child would), then becomes the example
/// handler. Arguments: the ticks file, the example handler's path, its `--out` file.
public enum SetsidTicker {
    public static let script = """
        #!/bin/sh
        setsid sh -c 'while :; do echo tick >> "$0"; sleep 0.05; done' "$1" &
        exec /usr/bin/python3 "$2" --out "$3"
        """

    /// Writes the script into `directory`, executable; returns its path.
    public static func write(in directory: TemporaryDirectory) throws -> String {
        let path = try directory.write("setsid-ticker.sh", script)
        chmod(path, 0o755)
        return path
    }

    /// How many ticks (or lines) the file holds.
    public static func lines(_ path: String) -> Int {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").count
    }
}
