import CSQLiteFloor
import Foundation

// Usage: floor foundation | sqlite DB | spatialite DB
// Prints the process's resident set (kB) after doing only that much:
// - foundation: JSON-encode a Date (Foundation and the Swift runtime loaded and used);
// - sqlite: and open DB with one SQLite connection and read its schema;
// - spatialite: and load mod_spatialite into that connection first, as every store connection does.
let arguments = CommandLine.arguments
guard arguments.count >= 2, ["foundation", "sqlite", "spatialite"].contains(arguments[1]),
    arguments[1] == "foundation" || arguments.count == 3
else {
    FileHandle.standardError.write(Data("usage: floor foundation | sqlite DB | spatialite DB\n".utf8))
    exit(2)
}
let mode = arguments[1]
let encoded = try JSONEncoder().encode(["now": Date()])
precondition(!encoded.isEmpty)
if mode != "foundation" {
    var connection: OpaquePointer?
    guard sqlite3_open_v2(arguments[2], &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
        FileHandle.standardError.write(Data("cannot open \(arguments[2])\n".utf8))
        exit(1)
    }
    if mode == "spatialite" {
        sqlite3_enable_load_extension(connection, 1)
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_load_extension(connection, "mod_spatialite", nil, &message) == SQLITE_OK else {
            FileHandle.standardError.write(Data("cannot load mod_spatialite\n".utf8))
            exit(1)
        }
    }
    guard sqlite3_exec(connection, "SELECT count(*) FROM sqlite_master", nil, nil, nil) == SQLITE_OK else {
        FileHandle.standardError.write(Data("cannot read the schema of \(arguments[2])\n".utf8))
        exit(1)
    }
}
let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }?.split(separator: " ").dropFirst().first
print(rss.map(String.init) ?? "?")
