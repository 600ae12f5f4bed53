#if canImport(Glibc)
import Glibc
#endif

/// What outputs call their sender: the CloudEvents `source` and the origin OwnTracks messages carry.
public enum OutputOrigin {
    /// `urn:waymark:` + the host's name.
    public static func source(host: String = hostName()) -> String { "urn:waymark:" + host }

    /// The machine's name (gethostname: no resolver involved), `localhost` if it has none.
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }
}
