import Foundation
import Logging
import WaymarkExportJob

/// `GET /v1/export`: the export code run over a Waymark database, as `waymark export --db` runs
/// it, into a private temporary file whose bytes are answered. The daemon passes its own
/// database; the fleet a temporary one holding the device's range copied from PostgreSQL.
/// Blocking (it reads the history twice and may draw a picture): callers run it off the
/// cooperative pool.
public enum HistoryExport {
    public static func bytes(database: String, request: ExportRequest, logger: Logger) throws -> [UInt8] {
        let source = ExportSource.history(database: database, from: request.from, to: request.to, device: request.device)
        do {
            if request.format == .stats {
                let overview = try ExportJob.overview(of: source, logger: logger)
                guard overview.statistics.points > 0 else { throw ExportError(.emptyTrack, "no fixes") }
                return Array(overview.statistics.json.utf8)
            }
            // Every API format but `stats` is an export format of the same name.
            guard let format = ExportFormat(rawValue: request.format.rawValue) else {
                throw APIError(.internalServerError, code: "export", message: "no export format '\(request.format.rawValue)'")
            }
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("waymark-export-\(UUID().uuidString).\(format.rawValue)").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            _ = try ExportJob.run(ExportOptions(source: source, format: format, outputPath: path), logger: logger)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw APIError(.internalServerError, code: "export", message: "the export wrote no file")
            }
            return Array(data)
        } catch let error as ExportError where error.code == .emptyTrack {
            throw APIError(
                .notFound, code: "empty-track",
                message: "device \"\(request.device)\" has no fixes in this range: nothing to export")
        } catch let error as ExportError {
            throw APIError(.internalServerError, code: "export-\(error.code.rawValue)", message: error.message)
        }
    }
}
