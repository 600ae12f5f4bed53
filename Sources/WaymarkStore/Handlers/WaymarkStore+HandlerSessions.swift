import GRDB
import WaymarkCore

/// One background period of a handler as stored (`v7-handler-sessions`).
public struct StoredHandlerSession: Sendable, Equatable {
    public var outcome: String
    public var seconds: Double
    public var useful: Bool?

    public init(outcome: String, seconds: Double, useful: Bool?) {
        self.outcome = outcome
        self.seconds = seconds
        self.useful = useful
    }
}

extension WaymarkStore {
    /// Sessions kept per handler: more than the standing rule looks at, for the record.
    static let handlerSessionsKept = 50

    /// Appends a handler's background period and drops its oldest beyond the ones kept.
    public func recordHandlerSession(handler: String, _ session: StoredHandlerSession, at time: Timestamp) throws {
        try writeHistory(synchronous: .normal, doing: "recording a session of handler \(handler)") { db in
            try db.execute(
                sql: "INSERT INTO handler_sessions (handler, ended_ns, outcome, seconds, useful) VALUES (?, ?, ?, ?, ?)",
                arguments: [handler, time.nanosecondsSince1970, session.outcome, session.seconds, session.useful])
            try db.execute(
                sql: """
                    DELETE FROM handler_sessions WHERE handler = ? AND id NOT IN
                        (SELECT id FROM handler_sessions WHERE handler = ? ORDER BY id DESC LIMIT ?)
                    """,
                arguments: [handler, handler, Self.handlerSessionsKept])
        }
    }

    /// The handler's newest `limit` background periods, oldest first.
    public func handlerSessions(handler: String, limit: Int) throws -> [StoredHandlerSession] {
        do {
            return try database.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT outcome, seconds, useful FROM handler_sessions WHERE handler = ? ORDER BY id DESC LIMIT ?",
                    arguments: [handler, limit]
                ).reversed().map { StoredHandlerSession(outcome: $0["outcome"], seconds: $0["seconds"], useful: $0["useful"]) }
            }
        } catch {
            throw StoreError(code: .database, message: "reading handler sessions: \(Self.describe(error))", path: path)
        }
    }
}
