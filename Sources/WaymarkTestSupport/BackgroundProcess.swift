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

    public init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
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
    /// is still running.
    @discardableResult
    public func wait(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        usleep(50_000)  // let the readability handlers drain the pipes
        return process.terminationStatus
    }

    /// Polls `condition` every 20 ms for up to `timeout` seconds.
    public static func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
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
