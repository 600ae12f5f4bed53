import WaymarkBeacons

/// What scans for iBeacons: the Bluetooth adapter (``BluetoothBeaconSource``). The daemon's
/// feed retries it and tells its ups and downs; tests that cannot have an adapter script one.
public protocol BeaconScanner: Sendable {
    /// Where it listens, for status and logs.
    var description: String { get }
    /// Starts scanning; advertisements until the stream ends (the scan stopped or failed).
    func start() throws -> AsyncThrowingStream<BeaconAdvertisement, any Error>
}

extension BluetoothBeaconSource: BeaconScanner {}
