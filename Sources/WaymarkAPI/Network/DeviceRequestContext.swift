import Hummingbird
import NIOCore

/// The device listener's request context: Hummingbird's basic one plus the connection, so a
/// request whose body is late can be cut off on it (`BodyDeadlines`).
struct DeviceRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
