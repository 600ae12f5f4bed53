import Foundation

/// A real child process left running while a test talks to it (a daemon), stopped by a real
/// signal. Its output is collected; it is killed if still running when released.
public final class BackgroundProcess: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    private var stdoutData = Data()
    private var stderrData = Data()

    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, currentDirectory: URL? = nil
    ) throws {
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.stdoutData.append(data) }
        }
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.stderrData.append(data) }
        }
        try process.run()
    }

    /// Starts the built `waymark` with `arguments`.
    public static func waymark(_ arguments: [String]) throws -> BackgroundProcess {
        try BackgroundProcess(ProjectPaths.waymarkExecutable, arguments)
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    public var stdout: String { lock.withLock { String(decoding: stdoutData, as: UTF8.self) } }
    public var stderr: String { lock.withLock { String(decoding: stderrData, as: UTF8.self) } }

    /// Sends `signal` (SIGTERM, SIGKILL, SIGHUP…).
    public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits up to `timeout` seconds for the process to exit; returns its status, or nil if it
    /// is still running. The caller suspends between polls: no thread is blocked.
    @discardableResult
    public func wait(timeout: Double) async throws -> Int32? {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()  // at once: it has exited
        try await Task.sleep(for: .milliseconds(50))  // let the readability handlers drain the pipes
        return process.terminationStatus
    }

    /// Runs `body` while the process runs, then sends SIGTERM and waits up to `timeout` seconds
    /// for it to exit, whether `body` returned or threw: the
    /// `defer { send(SIGTERM); wait(timeout:) }` that `defer` cannot `await`.
    public func whileRunning<T>(thenTerminateWithin timeout: Double = 10, _ body: () async throws -> T) async throws -> T {
        let result: T
        do {
            result = try await body()
        } catch {
            send(SIGTERM)
            _ = try? await wait(timeout: timeout)
            throw error
        }
        send(SIGTERM)
        try await wait(timeout: timeout)
        return result
    }

    /// Polls `condition` every 20 ms for up to `timeout` seconds, suspending between polls.
    public static func waitUntil(timeout: Double, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
    }
}
