import GRDB
import GRDBSQLite

extension Statement {
    /// Binds values straight into the prepared statement and steps it once, for the store
    /// writer's per-row inserts: GRDB's `StatementArguments` (an array of boxed
    /// `DatabaseValueConvertible`s a row) took about a third of each fix insert in the profile.
    /// Throws GRDB's `DatabaseError` with SQLite's extended result code and message, as
    /// `execute(arguments:)` does, so callers tell a refused row from a failed transaction alike.
    func executeBinding(_ bind: (inout DirectBindings) -> Void) throws {
        let handle = sqliteStatement
        sqlite3_reset(handle)
        var bindings = DirectBindings(statement: handle)
        bind(&bindings)
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else {
            let connection = sqlite3_db_handle(handle)
            let message = connection.map { String(cString: sqlite3_errmsg($0)) }
            let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
            sqlite3_reset(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: extended), message: message, sql: sql)
        }
    }
}

/// Positional bindings of one row, in parameter order (1, 2, …). A nil binds NULL.
struct DirectBindings {
    let statement: OpaquePointer
    private var index: Int32 = 0

    init(statement: OpaquePointer) { self.statement = statement }

    mutating func add(_ value: Int64) {
        index += 1
        sqlite3_bind_int64(statement, index, value)
    }

    mutating func add(_ value: Int64?) {
        index += 1
        if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
    }

    mutating func add(_ value: Int?) {
        index += 1
        if let value { sqlite3_bind_int64(statement, index, Int64(value)) } else { sqlite3_bind_null(statement, index) }
    }

    mutating func add(_ value: Double?) {
        index += 1
        if let value { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
    }

    mutating func add(_ value: String?) {
        index += 1
        guard let value else { return _ = sqlite3_bind_null(statement, index) }
        _ = value.utf8.withContiguousStorageIfAvailable { bytes in
            sqlite3_bind_text(statement, index, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, Int32(bytes.count), Self.transient)
        } ?? sqlite3_bind_text(statement, index, value, -1, Self.transient)
    }

    /// SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
