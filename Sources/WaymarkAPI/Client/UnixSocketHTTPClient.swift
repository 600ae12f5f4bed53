#if canImport(Glibc)
import Glibc
#endif

/// A minimal blocking HTTP/1.1 client over a Unix domain socket, for the CLI talking to a
/// running daemon (`waymark status`, `waymark regions …`).
///
/// One connection per request with `Connection: close`; reads the whole response and decodes
/// `Content-Length` and `chunked` bodies. Blocking: call it off the cooperative pool when async.
public struct UnixSocketHTTPClient: Sendable {
    public var socketPath: String
    /// Longest wait for the daemon to accept, answer or take bytes; `nil` waits for ever
    /// (reading a `/v1/stream` until the daemon ends it).
    public var timeout: Duration?
    /// Whose daemon this client talks to; checked on every connection before anything is sent.
    public var peerRule: SocketPeerRule

    public init(socketPath: String, timeout: Duration? = .seconds(30), peerRule: SocketPeerRule = .ownUserOrRoot) {
        self.socketPath = socketPath
        self.timeout = timeout
        self.peerRule = peerRule
    }

    /// Sends one request and returns the status code and the decoded body.
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, `DELETE`…
    ///   - path: The request target with its query, e.g. `/v1/history?kind=fix&limit=10`.
    ///   - body: Sent with `Content-Length` (and `Content-Type: application/json` unless
    ///     `headers` names one) when not `nil`.
    /// - Throws: `UnixSocketHTTPClientError`; `.noDaemon` when nothing listens at the path.
    public func request(
        method: String = "GET", path: String, body: [UInt8]? = nil, headers: [(name: String, value: String)] = []
    ) throws(UnixSocketHTTPClientError) -> (status: Int, body: [UInt8]) {
        let fd = try connect()
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nUser-Agent: waymark\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body {
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                head += "Content-Type: application/json\r\n"
            }
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        try send(fd, Array(head.utf8) + (body ?? []))
        let response = try receiveAll(fd)
        return try Self.parse(response, path: socketPath)
    }

    /// A connected stream socket, with send and receive timeouts set.
    func connect() throws(UnixSocketHTTPClientError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .init(.connection, "socket(): \(Self.errorText(errno))", path: socketPath) }
        if let timeout {
            let seconds = timeout.components.seconds
            let microseconds = timeout.components.attoseconds / 1_000_000_000_000
            var tv = timeval(tv_sec: Int(seconds), tv_usec: Int(microseconds))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        }
        let result = Self.withAddress(socketPath) { address, length in Glibc.connect(fd, address, length) }
        switch result {
        case .some(0):
            guard let peer = SocketPeerRule.peerUser(of: fd) else {
                close(fd)
                throw .init(.untrustedPeer, "cannot tell who serves the socket \(socketPath) (SO_PEERCRED)", path: socketPath)
            }
            if let refusal = peerRule.refusal(peer: peer, path: socketPath) {
                close(fd)
                throw .init(.untrustedPeer, refusal, path: socketPath)
            }
            return fd
        case nil:
            close(fd)
            throw .init(.connection, "socket path is longer than \(Self.maximumPathLength) bytes", path: socketPath)
        default:
            let error = errno
            close(fd)
            if error == ENOENT || error == ECONNREFUSED {
                throw .init(.noDaemon, "no daemon at \(socketPath) (\(Self.errorText(error)))", path: socketPath)
            }
            throw .init(.connection, "cannot connect to \(socketPath): \(Self.errorText(error))", path: socketPath)
        }
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) throws(UnixSocketHTTPClientError) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(errno, doing: "sending the request")
            }
            sent += n
        }
    }

    private func receiveAll(_ fd: Int32) throws(UnixSocketHTTPClientError) -> [UInt8] {
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n == 0 { return response }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(errno, doing: "reading the response")
            }
            response.append(contentsOf: chunk[0..<n])
        }
    }

    private func failure(_ error: Int32, doing: String) -> UnixSocketHTTPClientError {
        if error == EAGAIN || error == EWOULDBLOCK {
            return .init(.timeout, "the daemon at \(socketPath) did not answer in time \(doing)", path: socketPath)
        }
        return .init(.connection, "\(doing) from \(socketPath): \(Self.errorText(error))", path: socketPath)
    }

    /// Status and body of a complete HTTP/1.1 response.
    static func parse(_ bytes: [UInt8], path: String) throws(UnixSocketHTTPClientError) -> (status: Int, body: [UInt8]) {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.firstRange(of: separator) else {
            throw .init(.malformedResponse, "the response ended before its headers did", path: path)
        }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw .init(.malformedResponse, "not an HTTP/1.x status line: \(lines.first ?? "")", path: path)
        }
        var contentLength: Int?
        var chunked = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces
            if name == "content-length" { contentLength = Int(value) }
            if name == "transfer-encoding", value.lowercased().contains("chunked") { chunked = true }
        }
        let rest = bytes[end.upperBound...]
        if chunked { return (status, try decodeChunked(rest, path: path)) }
        if let contentLength {
            guard rest.count >= contentLength else {
                throw .init(
                    .malformedResponse, "the body has \(rest.count) of its \(contentLength) bytes", path: path)
            }
            return (status, Array(rest.prefix(contentLength)))
        }
        return (status, Array(rest))
    }

    private static func decodeChunked(_ bytes: ArraySlice<UInt8>, path: String) throws(UnixSocketHTTPClientError)
        -> [UInt8]
    {
        var body: [UInt8] = []
        var i = bytes.startIndex
        while true {
            guard let lineEnd = bytes[i...].firstRange(of: [13, 10]) else {
                throw .init(.malformedResponse, "chunked body ended inside a chunk size", path: path)
            }
            let sizeText = String(decoding: bytes[i..<lineEnd.lowerBound], as: UTF8.self)
                .split(separator: ";").first.map { String($0).trimmingSpaces } ?? ""
            guard let size = Int(sizeText, radix: 16), size >= 0 else {
                throw .init(.malformedResponse, "bad chunk size \"\(sizeText)\"", path: path)
            }
            i = lineEnd.upperBound
            if size == 0 { return body }
            guard bytes.endIndex - i >= size + 2 else {
                throw .init(.malformedResponse, "chunked body ended inside a chunk", path: path)
            }
            body.append(contentsOf: bytes[i..<(i + size)])
            i += size + 2
        }
    }

    /// `sun_path` holds 108 bytes including the terminating NUL.
    static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Calls `body` with a `sockaddr_un` for `path`; `nil` when the path is too long.
    static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R? {
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumPathLength else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// Why a request to the daemon failed.
public struct UnixSocketHTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// Nothing listens at the socket path (no file, or a stale one): start `waymark serve`.
        case noDaemon = "no-daemon"
        /// Connecting, sending or receiving failed otherwise (permissions, reset).
        case connection = "connection"
        case timeout = "timeout"
        /// The answer is not HTTP/1.x.
        case malformedResponse = "malformed-response"
        /// The socket is served by another user than this one or root (`SocketPeerRule`):
        /// nothing was sent.
        case untrustedPeer = "untrusted-peer"
    }

    public var code: Code
    public var message: String
    public var path: String

    public init(_ code: Code, _ message: String, path: String) {
        self.code = code
        self.message = message
        self.path = path
    }

    public var description: String { message }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
