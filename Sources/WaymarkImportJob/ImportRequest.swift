/// What to import, and how.
public struct ImportRequest: Sendable, Equatable {
    /// Files, archives (zip, KMZ, gzip) and folders, in the order given.
    public var paths: [String]
    /// The device whose history the fixes join.
    public var device: String
    /// Deliver the events the import computes to outputs (webhooks, MQTT…): off by default, as
    /// the past is not news (docs/import.md).
    public var deliver: Bool
    /// Read files again that an earlier import read whole (their fixes are still added only once).
    public var reread: Bool
    /// CSV columns when the header's names are not recognised (`lat=Y,lon=X,time=when`).
    public var columns: String?
    /// Fixes per transaction.
    public var chunkSize: Int

    public init(paths: [String], device: String, deliver: Bool = false, reread: Bool = false, columns: String? = nil, chunkSize: Int = 20_000) {
        self.paths = paths
        self.device = device
        self.deliver = deliver
        self.reread = reread
        self.columns = columns
        self.chunkSize = chunkSize
    }
}
