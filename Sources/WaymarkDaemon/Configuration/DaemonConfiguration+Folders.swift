import WaymarkCore

extension DaemonConfiguration {
    /// The configuration with the paths the daemon keeps open or hands on made absolute against
    /// `directory` (the one `waymark serve` was started in). Handlers run in a working directory
    /// of their own, so a relative handler socket path would reach them pointing nowhere.
    /// Region files and replay inputs keep the form they were given in: they are read from
    /// the daemon's own directory, and messages quote them as the user wrote them.
    public func withAbsolutePaths(from directory: String) -> DaemonConfiguration {
        func absolute(_ path: String) -> String { Self.absolute(path, from: directory) }
        var resolved = self
        resolved.database = absolute(database)
        resolved.socketPath = absolute(socketPath)
        resolved.handlerSocketDirectoryOverride = handlerSocketDirectoryOverride.map(absolute)
        resolved.handlerLogDirectory = handlerLogDirectory.map(absolute)
        resolved.tokenFile = tokenFile.map(absolute)
        resolved.memoryPressureFile = memoryPressureFile.map(absolute)
        resolved.deviceListener?.tlsCertificate = deviceListener?.tlsCertificate.map(absolute)
        resolved.deviceListener?.tlsKey = deviceListener?.tlsKey.map(absolute)
        return resolved
    }

    /// The folders the daemon writes into, parents before children: the database's, the API
    /// socket's, the handler sockets' and the handlers' logs'.
    public var folders: [String] {
        var folders: [String] = []
        for candidate in [folder(of: database), folder(of: socketPath), handlerSocketDirectory] + (handlerLogDirectory.map { [$0] } ?? [])
        where !folders.contains(candidate) {
            folders.append(candidate)
        }
        return folders
    }

    /// `path` if it is absolute, else `path` under `directory`, with `.` components and a
    /// leading `./` removed (`..` is kept: the folder it leads to may be a symbolic link).
    static func absolute(_ path: String, from directory: String) -> String {
        if path.hasPrefix("/") { return path }
        let parts = (directory.split(separator: "/") + path.split(separator: "/")).filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }
}
