import GRDB
import WaymarkCore

extension WaymarkStore {
    /// The columns `directFix` reads, by index: a fix's row id first, then its values.
    static let directFixColumns = """
        id, time_ns, latitude, longitude, altitude, horizontal_accuracy, vertical_accuracy, \
        latitude_accuracy, longitude_accuracy, hdop, vdop, pdop, satellites, mode, speed, course
        """

    /// The fix in a row of `directFixColumns`, read straight from the statement (the hot paged
    /// reads: an import's evaluation, the timeline), where decoding by column name cost most of the time.
    static func directFix(_ columns: DirectColumns) throws -> Fix {
        let mode = try fixMode(columns.string(13), fix: columns.int64(0))
        return Fix(
            time: Timestamp(nanosecondsSince1970: columns.int64(1)),
            coordinate: Coordinate(latitude: columns.double(2) ?? .nan, longitude: columns.double(3) ?? .nan),
            altitude: columns.double(4), horizontalAccuracy: columns.double(5), verticalAccuracy: columns.double(6),
            hdop: columns.double(9), vdop: columns.double(10), pdop: columns.double(11),
            satellites: columns.double(12).map { Int($0) }, mode: mode, speed: columns.double(14), course: columns.double(15),
            latitudeAccuracy: columns.double(7), longitudeAccuracy: columns.double(8))
    }

    /// The rows of `statement` (selecting `directFixColumns`) with `arguments`: a page of at most
    /// `limit` fixes, with their row ids.
    static func fixPage(_ statement: Statement, _ arguments: StatementArguments, limit: Int) throws -> [(id: Int64, fix: Fix)] {
        statement.setUncheckedArguments(arguments)
        var page: [(id: Int64, fix: Fix)] = []
        page.reserveCapacity(min(limit, 65_536))
        try statement.forEachRow { columns in page.append((columns.int64(0), try directFix(columns))) }
        return page
    }

    /// A read on a snapshot, its failures as `StoreError`s saying what was being done.
    func read<T>(doing action: String, _ value: (Database) throws -> T) throws -> T {
        do {
            return try database.read(value)
        } catch let error as StoreError {
            throw error
        } catch {
            throw storeError(error, doing: action)
        }
    }
}
