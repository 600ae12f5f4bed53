import Foundation
import Logging

/// Logs of the command-line tool go to standard error, one line each, at the level from
/// `WAYMARK_LOG_LEVEL` (trace … critical; default `notice`), so standard output stays pure JSON Lines.
enum CommandLogging {
    private static let bootstrapped: Void = {
        let level = ProcessInfo.processInfo.environment["WAYMARK_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .notice
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }()

    static func logger(_ label: String) -> Logger {
        _ = bootstrapped
        return Logger(label: label)
    }

    /// A logger at an explicit level (the daemon's `log.level`), unless `WAYMARK_LOG_LEVEL` says otherwise.
    static func logger(_ label: String, level: Logger.Level) -> Logger {
        var logger = logger(label)
        if ProcessInfo.processInfo.environment["WAYMARK_LOG_LEVEL"] == nil { logger.logLevel = level }
        return logger
    }
}
