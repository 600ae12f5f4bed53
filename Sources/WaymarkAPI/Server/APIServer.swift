#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import WaymarkStore

/// The daemon's local HTTP/JSON API as a service for the daemon's `ServiceGroup`.
///
/// Always listens on a Unix socket (mode 0600; see `UnixSocketPlacement` for how it gets there
/// without a window), and optionally on `127.0.0.1:PORT`, where every request needs
/// `Authorization: Bearer TOKEN`. Each listener is a Hummingbird `Application` over the same
/// routes; both stop on graceful shutdown, and the socket file is removed.
public struct APIServer: Service {
    public struct Configuration: Sendable {
        /// Where the Unix socket goes, e.g. `$XDG_RUNTIME_DIR/waymark/api.sock`. Missing parent
        /// directories are created 0700.
        public var socketPath: String
        /// Also listen on `127.0.0.1:tcpPort` (0 picks a free port) when set; needs `token`.
        public var tcpPort: Int?
        /// The bearer token the TCP listener requires.
        public var token: String?
        /// Largest request body accepted (`POST /v1/regions`); larger ones get 413. 64 MiB holds
        /// the largest region files in use (Natural Earth admin-1, ~40 MB).
        public var maximumBodySize: Int
        /// Largest upload `POST /v1/imports` takes (streamed to a file, never held in memory);
        /// larger ones get 413. 4 GiB holds the largest Takeout exports reported (1.6 GB).
        public var maximumUploadSize: Int64 = 4 << 30
        /// How often `/v1/stream` sends a comment when nothing else happens.
        public var heartbeatInterval: Duration
        /// Called once every listener is up, with where (the TCP port chosen for port 0).
        public var onReady: (@Sendable (ListeningAddresses) async -> Void)?
        /// Which peers (SO_PEERCRED) the Unix socket serves: by default the daemon's own user
        /// and root; others get 403 `forbidden-peer` (tests pass their own rule).
        var admitsPeer: @Sendable (PeerCredentials) -> Bool = PeerCredentials.isTrusted
        /// A group whose members may use the Unix socket too (`api.group`): the socket is made
        /// 0660 with this group, and its members are admitted besides `admitsPeer`'s.
        public var socketGroup: UInt32?
        /// The web page's settings (`web:`).
        public var web = WebSettings()
        /// `web.basemap`, opened: the tiles `GET /v1/tiles/{z}/{x}/{y}` serves.
        public var basemap: MBTilesFile?

        public init(
            socketPath: String, tcpPort: Int? = nil, token: String? = nil, maximumBodySize: Int = 64 << 20,
            heartbeatInterval: Duration = .seconds(15), onReady: (@Sendable (ListeningAddresses) async -> Void)? = nil
        ) {
            self.socketPath = socketPath
            self.tcpPort = tcpPort
            self.token = token
            self.maximumBodySize = maximumBodySize
            self.heartbeatInterval = heartbeatInterval
            self.onReady = onReady
        }
    }

    /// Where the server listens once it is ready.
    public struct ListeningAddresses: Sendable, Equatable {
        public var socketPath: String
        /// The loopback TCP port, when TCP is enabled.
        public var tcpPort: Int?
    }

    public let configuration: Configuration
    private let backend: any DaemonBackend
    private let logger: Logger

    /// - Throws: `APIServerError.configuration` when TCP is asked for without a non-empty token.
    public init(configuration: Configuration, backend: some DaemonBackend, logger: Logger) throws(APIServerError) {
        if configuration.tcpPort != nil, (configuration.token ?? "").isEmpty {
            throw APIServerError(.configuration, "the TCP listener needs a bearer token; set one or disable TCP")
        }
        self.configuration = configuration
        self.backend = backend
        self.logger = logger
    }

    /// Serves until graceful shutdown or cancellation. Throws `APIServerError` when the socket
    /// cannot be placed (another daemon is listening, say) and Hummingbird's errors when a
    /// listener cannot bind.
    public func run() async throws {
        let placement = try UnixSocketPlacement.prepare(path: configuration.socketPath)
        let ready = ReadinessTracker(expected: configuration.tcpPort == nil ? 1 : 2, onReady: configuration.onReady)
        let (failures, failure) = AsyncStream<APIServerError>.makeStream()
        let published = Mutex<ino_t?>(nil)
        defer {
            placement.discardPrivateName()
            if let inode = published.withLock({ $0 }) { placement.remove(inode: inode) }
        }
        let logger = self.logger
        let socketPath = configuration.socketPath

        var unixApp = APIListener(
            responder: Self.makeRouter(backend: backend, configuration: configuration).buildResponder(),
            address: .unixDomainSocket(path: placement.bindPath), logger: logger,
            onServerRunning: { _ in
                do throws(APIServerError) {
                    let inode = try placement.publish(group: configuration.socketGroup)
                    published.withLock { $0 = inode }
                    logger.info("API listening", metadata: ["api.socket": "\(socketPath)"])
                    await ready.listening(socketPath: socketPath)
                } catch {
                    // The server stopped before this callback ran (a replay with
                    // --exit-after-replay can finish first) and took its socket file with it:
                    // there is nothing left to publish, and nothing failed.
                    if access(placement.bindPath, F_OK) != 0 && errno == ENOENT {
                        logger.debug("API server stopped before its socket was published")
                        return
                    }
                    failure.yield(error)
                }
            })
        let (admits, group) = (configuration.admitsPeer, configuration.socketGroup)
        unixApp.admits = { peer in admits(peer) || group.map { PeerCredentials.isMember(peer, of: $0) } == true }
        let unixListener = unixApp
        let tcpApp: APIListener<RouterResponder<BasicRequestContext>>?
        if let port = configuration.tcpPort, let token = configuration.token {
            let listening = ListeningPort(port == 0 ? nil : port)
            tcpApp = APIListener(
                responder: Self.makeRouter(backend: backend, configuration: configuration, token: token, tcpPort: listening)
                    .buildResponder(),
                address: .hostname("127.0.0.1", port: port), logger: logger,
                onServerRunning: { channel in
                    let port = channel.localAddress?.port ?? port
                    listening.set(port)
                    logger.info("API listening", metadata: ["api.tcp": "127.0.0.1:\(port)"])
                    await ready.listening(tcpPort: port)
                })
        } else {
            tcpApp = nil
        }

        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await error in failures { throw error }
            }
            group.addTask {
                defer { failure.finish() }
                try await withThrowingTaskGroup(of: Void.self) { apps in
                    apps.addTask { try await unixListener.run() }
                    if let tcpApp { apps.addTask { try await tcpApp.run() } }
                    try await apps.waitForAll()
                }
            }
            try await group.waitForAll()
        }
    }
}

/// Calls `onReady` once every listener has reported in.
private actor ReadinessTracker {
    private let expected: Int
    private let onReady: (@Sendable (APIServer.ListeningAddresses) async -> Void)?
    private var reported = 0
    private var addresses = APIServer.ListeningAddresses(socketPath: "", tcpPort: nil)

    init(expected: Int, onReady: (@Sendable (APIServer.ListeningAddresses) async -> Void)?) {
        self.expected = expected
        self.onReady = onReady
    }

    func listening(socketPath: String? = nil, tcpPort: Int? = nil) async {
        if let socketPath { addresses.socketPath = socketPath }
        if let tcpPort { addresses.tcpPort = tcpPort }
        reported += 1
        if reported == expected { await onReady?(addresses) }
    }
}
