#if canImport(Glibc)
import Glibc
#endif
import WaymarkConfiguration
import Yams

extension ConfigurationReader {
    /// A group of this system, by name or number (`api.group`): its id. A name the system does
    /// not know is an error here, located, not a socket nobody can use later.
    func group(_ node: Node, key: String) throws(ConfigurationError) -> UInt32 {
        let name = try string(node, key: key)
        if let number = UInt32(name) { return number }
        var entry = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        let status = getgrnam_r(name, &entry, &buffer, buffer.count, &result)
        guard status == 0, result != nil else { throw error(node, key: key, "no group named '\(name)' on this system") }
        return entry.gr_gid
    }
}
