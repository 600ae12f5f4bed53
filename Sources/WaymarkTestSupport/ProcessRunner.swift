import Foundation

/// The outcome of running a real child process to completion.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// Non-empty stdout lines.
    public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// Runs an executable (never through a shell) with arguments and waits for it.
public func runProcess(
    _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
    currentDirectory: URL? = nil
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Drain both pipes concurrently so a chatty child never blocks on a full pipe.
    let errData = LockedData()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData.get(), as: UTF8.self))
}

/// Runs the built `waymark` executable.
public func runWaymark(_ arguments: [String], currentDirectory: URL? = nil) throws -> ProcessResult {
    try runProcess(
        ProjectPaths.waymarkExecutable, arguments,
        currentDirectory: currentDirectory ?? ProjectPaths.repositoryRoot)
}

/// Runs `/usr/bin/python3 -c SCRIPT ARGS…`: Debian's Python, where the setup script installs the
/// independent reference implementations the tests compare against (python3-gpxpy,
/// python3-geographiclib, python3-gps), whatever other Python is first on PATH.
public func runPython(_ script: String, _ arguments: [String] = []) throws -> ProcessResult {
    try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script] + arguments)
}

private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}
