import WaymarkAPI
import WaymarkStore

/// Where a command that changes devices or outputs goes: a running daemon's API when one
/// answers (so it acts on the change at once), else the store, read when the daemon starts.
enum CommandTarget {
    case daemon(UnixSocketHTTPClient)
    case store(WaymarkStore)

    init(_ options: RegionsCommand.StoreOptions) throws {
        if let client = try options.daemon() { self = .daemon(client) } else { self = .store(try options.open()) }
    }
}
