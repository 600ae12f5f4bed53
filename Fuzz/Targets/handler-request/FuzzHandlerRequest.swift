import WaymarkHandlers

/// Fuzzes `HandlerRequest.parse` (WaymarkHandlers/Protocol/HandlerMessage): every line a
/// handler process sends the daemon over its Unix socket. The input is a stretch of the
/// stream: it is cut into lines at newlines and each line decoded as UTF-8 (with replacement),
/// as `HandlerLineReader.channelRead` does, then parsed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let stream = UnsafeBufferPointer(start: data, count: size)
    for line in stream.split(separator: 0x0A, omittingEmptySubsequences: false) {
        _ = HandlerRequest.parse(String(decoding: line, as: UTF8.self))
    }
    return 0
}
