import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real `nats-server -js` on a free loopback port with its own store directory, for one test.
/// Use `withNATSServer`, which stops the server (SIGTERM, then wait) whether the body passes or throws.
final class NATSServerProcess {
    let process: Process
    let port: Int
    let storeDirectory: URL

    var url: String { "nats://127.0.0.1:\(port)" }

    static let executable = "/usr/sbin/nats-server"

    init(jetStream: Bool = true) throws {
        port = try Self.freePort()
        storeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("nats-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: storeDirectory, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        var arguments = ["-a", "127.0.0.1", "-p", String(port)]
        if jetStream { arguments += ["-js", "-sd", storeDirectory.path] }
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Waits until the port accepts connections (at most 10 s).
    func waitUntilReady() async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            guard process.isRunning else { throw ServerError.exited(process.terminationStatus) }
            if Self.canConnect(port: port) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ServerError.notReady(port)
    }

    /// SIGTERM and wait; SIGKILL if it has not exited after 5 s. Removes the store directory.
    func stop() {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: storeDirectory)
    }

    /// Dies like a crashed server: SIGKILL, no goodbye to clients.
    func killHard() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    enum ServerError: Error {
        case exited(Int32)
        case notReady(Int)
        case socket(String)
    }

    /// Binds a socket to 127.0.0.1:0 and returns the port the kernel chose.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError.socket("socket") }
        defer { close(fd) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw ServerError.socket("bind") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw ServerError.socket("getsockname") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == 0
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

/// Runs `body` against a fresh server and always stops the server afterwards.
func withNATSServer<T>(jetStream: Bool = true, _ body: (NATSServerProcess) async throws -> T) async throws -> T {
    let server = try NATSServerProcess(jetStream: jetStream)
    defer { server.stop() }
    try await server.waitUntilReady()
    return try await body(server)
}
