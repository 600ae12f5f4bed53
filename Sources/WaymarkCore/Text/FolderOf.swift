/// The folder part of a path: `"."` for a bare file name (so `--db w.sqlite` means the current
/// folder, not the empty path), `"/"` for a file at the root.
public func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}
