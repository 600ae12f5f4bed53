import Foundation

#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// A one-client TCP server that misbehaves on purpose: sends `greeting`, waits for the client's
/// PING, sends `afterPing`, then holds the socket open until the client closes it (so a client
/// that hangs instead of closing is caught by the test's own deadline).
final class FakeNATSServer: Sendable {
    let port: Int
    private let listener: Int32

    init(greeting: String, afterPing: String) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = NATSServerProcess.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0, ok else { throw NATSServerProcess.ServerError.socket("fake server") }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [listener] in
            let client = accept(listener, nil, nil)
            close(listener)
            guard client >= 0 else { return }
            defer { close(client) }
            Self.write(client, greeting)
            var seen = [UInt8]()
            var chunk = [UInt8](repeating: 0, count: 4096)
            while !String(decoding: seen, as: UTF8.self).contains("PING\r\n") {
                let n = read(client, &chunk, chunk.count)
                if n <= 0 { return }
                seen += chunk[0..<n]
            }
            Self.write(client, afterPing)
            while read(client, &chunk, chunk.count) > 0 {}
        }
        thread.start()
    }

    var url: String { "nats://127.0.0.1:\(port)" }

    static func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
    }

    static let info = "INFO {\"server_id\":\"FAKE\",\"version\":\"2.9.10\",\"max_payload\":1048576,\"headers\":true}\r\n"
}
