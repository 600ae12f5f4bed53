import WaymarkCore

extension GPXFixSource {
    /// Every fix of the GPX file at `path`, in file order (for benchmarks and tools that need
    /// the whole track in memory).
    public static func fixes(atPath path: String) throws -> [Fix] {
        var source = try GPXFixSource(path: path)
        var fixes: [Fix] = []
        while let fix = try source.next() { fixes.append(fix) }
        return fixes
    }
}
