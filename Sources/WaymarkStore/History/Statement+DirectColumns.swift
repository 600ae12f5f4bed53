import GRDB
import GRDBSQLite

extension Statement {
    /// Steps the statement (its arguments already set) and hands each row's columns to `body`,
    /// read by index straight from SQLite: for the few hot reads where GRDB's `Row` (a column
    /// lookup by lowercased name, a generic decode per value) costs more than the work itself.
    func forEachRow(_ body: (DirectColumns) throws -> Void) throws {
        let handle = sqliteStatement
        sqlite3_reset(handle)
        defer { sqlite3_reset(handle) }
        let columns = DirectColumns(statement: handle)
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                let connection = sqlite3_db_handle(handle)
                let message = connection.map { String(cString: sqlite3_errmsg($0)) }
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
            }
            try body(columns)
        }
    }
}

/// The current row's columns, by 0-based index; a NULL reads as nil.
struct DirectColumns {
    let statement: OpaquePointer

    func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }

    func double(_ index: Int32) -> Double? {
        sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : sqlite3_column_double(statement, index)
    }

    func string(_ index: Int32) -> String? {
        guard let text = sqlite3_column_text(statement, index) else { return nil }
        return String(cString: text)
    }
}
