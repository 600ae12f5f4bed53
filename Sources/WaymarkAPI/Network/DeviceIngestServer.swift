import Hummingbird
import NIOSSL
import Logging
import ServiceLifecycle

/// The network listener phones and trackers send their positions to (docs/devices.md):
/// OwnTracks' HTTP mode at `POST /v1/owntracks`, the OsmAnd protocol (OsmAnd, Traccar Client,
/// GPSLogger) at `GET|POST /v1/osmand`. Plain HTTP on the configured address; put a TLS reverse
/// proxy in front of it when it faces the internet (docs/devices.md says how).
public struct DeviceIngestServer: Service {
    public struct Configuration: Sendable {
        public var host: String
        /// 0 picks a free port (tests); `onListening` says which.
        public var port: Int
        /// Bodies larger than this are refused with 413 before they are read whole.
        public var maximumBodySize: Int
        /// A connection that sends nothing for this long is closed.
        public var idleTimeout: Duration
        /// A request whose body has not arrived whole by then is answered 408.
        public var bodyTimeout: Duration
        /// How many requests may have their bodies read before they are authenticated, at once:
        /// those whose device is named only in the body (docs/security.md). More get 503.
        public var unauthenticatedReads = 16
        /// PEM files of the certificate (with its chain) and private key: serve HTTPS (nil: plain HTTP).
        public var tls: (certificate: String, key: String)?
        public var onListening: (@Sendable (Int) async -> Void)?
        /// Each exchange's bytes (`TrafficMiddleware`), for the network radio's energy.
        public var onTraffic: (@Sendable (Int) -> Void)?

        public init(
            host: String, port: Int, maximumBodySize: Int = 64 << 10, idleTimeout: Duration = .seconds(30),
            bodyTimeout: Duration = .seconds(10), tls: (certificate: String, key: String)? = nil,
            onListening: (@Sendable (Int) async -> Void)? = nil
        ) {
            self.tls = tls
            self.host = host
            self.port = port
            self.maximumBodySize = maximumBodySize
            self.idleTimeout = idleTimeout
            self.bodyTimeout = bodyTimeout
            self.onListening = onListening
        }
    }

    let configuration: Configuration
    let backend: any DeviceIngestBackend
    let logger: Logger

    public init(configuration: Configuration, backend: any DeviceIngestBackend, logger: Logger) {
        self.configuration = configuration
        self.backend = backend
        self.logger = logger
    }

    /// The TLS configuration from the PEM files. Throws `APIServerError` naming the file that
    /// cannot be read or used.
    public static func tlsConfiguration(certificate: String, key: String) throws -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificate)
        } catch {
            throw APIServerError(.configuration, "\(certificate): not a PEM certificate chain (\(error))")
        }
        guard !chain.isEmpty else { throw APIServerError(.configuration, "\(certificate): no certificate in it") }
        let privateKey: NIOSSLPrivateKey
        do {
            privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
        } catch {
            throw APIServerError(.configuration, "\(key): not a PEM private key (\(error))")
        }
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
    }

    public func run() async throws {
        let configuration = self.configuration
        let logger = self.logger
        let tls = try configuration.tls.map { try Self.tlsConfiguration(certificate: $0.certificate, key: $0.key) }
        let deadlines = BodyDeadlines(timeout: configuration.bodyTimeout)
        let listener = APIListener(
            responder: Self.makeRouter(backend: backend, configuration: configuration, deadlines: deadlines).buildResponder(),
            address: .hostname(configuration.host, port: configuration.port), logger: logger,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                logger.info("Device listener listening", metadata: ["devices.listen": "\(configuration.host):\(port)"])
                await configuration.onListening?(port)
            },
            idleTimeout: configuration.idleTimeout, tls: tls)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await listener.run() }
            group.addTask { await deadlines.run() }
            // The listener ends (shutdown, or an error); the sweeper with it.
            try await group.next()
            group.cancelAll()
        }
    }
}
