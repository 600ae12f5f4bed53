/// Where deliveries' bytes and held connections are counted, for the network radio's energy
/// (docs/semantics.md §4.1): the single daemon's `NetworkMeter` conforms; a fleet counts nothing.
public protocol TrafficMeter: Sendable {
    /// `bytes` sent and received for `party`.
    func transfer(_ bytes: Int, by party: String)
    /// `party` holds a connection open from now on (pinging every `keepalive` seconds if quiet).
    func opened(by party: String, keepalive: Double?)
    func closed(by party: String)
}

/// The parties outputs count their traffic under.
public enum OutputTraffic {
    /// An output's party in the ledger.
    public static func party(ofOutput name: String) -> String { "output:" + name }
}
