import WaymarkPower

/// Fuzzes `PowerProfile.parse(yaml:file:)` (WaymarkPower/Profile), which `PowerProfile.load`
/// runs on each power profile file (the daemon's `power:` settings, `waymark replay`'s
/// energy figures). `load` reads the file as UTF-8 and refuses anything else, so inputs that
/// are not valid UTF-8 are skipped.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    do {
        _ = try PowerProfile.parse(yaml: text, file: "profile.yaml")
    } catch {
        _ = error.description
    }
    return 0
}
