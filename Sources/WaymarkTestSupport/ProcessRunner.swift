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
///
/// The caller suspends; the child is run and waited for on a thread of its own
/// (``onOwnThread(_:)``), so a slow child never holds one of the cooperative pool's threads
/// (two on a 2-core machine) that in-process servers in the same test run need.
public func runProcess(
    _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
    currentDirectory: URL? = nil
) async throws -> ProcessResult {
    try await onOwnThread {
        try runToCompletion(executable, arguments, environment: environment, currentDirectory: currentDirectory)
    }
}

/// Runs the built `waymark` executable.
public func runWaymark(_ arguments: [String], currentDirectory: URL? = nil) async throws -> ProcessResult {
    try await runProcess(
        ProjectPaths.waymarkExecutable, arguments,
        currentDirectory: currentDirectory ?? ProjectPaths.repositoryRoot)
}

/// Runs `/usr/bin/python3 -c SCRIPT ARGS…`: Debian's Python, where the setup script installs the
/// independent reference implementations the tests compare against (python3-gpxpy,
/// python3-geographiclib, python3-gps), whatever other Python is first on PATH.
public func runPython(_ script: String, _ arguments: [String] = []) async throws -> ProcessResult {
    try await runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script] + arguments)
}

/// Runs `body` on a new OS thread and returns its result, so a test can call blocking APIs
/// (waiting for a child process, a blocking client, a full queue) without blocking the
/// cooperative pool.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.name = "waymark test: own thread"
        thread.start()
    }
}

/// Blocks until the child exits: only ever called on a thread of its own (``runProcess``).
private func runToCompletion(
    _ executable: URL, _ arguments: [String], environment: [String: String]?, currentDirectory: URL?
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
    // Drain both pipes concurrently so a chatty child never blocks on a full pipe. stderr gets a
    // thread of its own too, not a Dispatch global queue: on Linux those share their threads
    // with the cooperative pool, which the read would hold for as long as the child runs.
    let errData = LockedData()
    let group = DispatchGroup()
    group.enter()
    let errReader = Thread {
        errData.set(err.fileHandleForReading.readDataToEndOfFile())
        group.leave()
    }
    errReader.name = "waymark test: stderr"
    errReader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus,
        stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData.get(), as: UTF8.self))
}

private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}
