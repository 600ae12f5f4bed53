import WaymarkDaemon

/// Fuzzes `DaemonConfiguration.parse(yaml:file:over:)` (WaymarkDaemon/Configuration: Yams'
/// composer, then `ConfigurationReader` and its sections), which `waymark serve` runs on its
/// configuration file through `load(yamlFile:over:)`. That reads the file as UTF-8 and refuses
/// anything else, so inputs that are not valid UTF-8 are skipped.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    do {
        _ = try DaemonConfiguration.parse(yaml: text, file: "waymark.yaml", over: defaults)
    } catch {
        _ = error.description
    }
    return 0
}

private let defaults = DaemonConfiguration(database: "waymark.sqlite", socketPath: "waymark.sock")
