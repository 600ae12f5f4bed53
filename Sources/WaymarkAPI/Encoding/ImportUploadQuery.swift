import Hummingbird
import WaymarkDevices
import WaymarkImport

/// `POST /v1/imports`' parameters: `device` (required: whose history the file joins),
/// `deliver` (send the computed events to outputs), `columns` (CSV columns, as
/// `waymark import --columns`) and `name` (the file's name, for messages only: the content
/// decides the format).
struct ImportUploadQuery: Sendable, Equatable {
    var device: String
    var deliver: Bool
    var columns: String?
    var name: String

    init(_ parameters: Parameters) throws(APIError) {
        for (name, _) in parameters where !["device", "deliver", "columns", "name"].contains(name) {
            throw .invalidParameter(String(name), "unknown parameter; /v1/imports takes device, deliver, columns and name")
        }
        guard let device = parameters.get("device") else {
            throw .invalidParameter("device", "missing: the device whose history this is (as in `waymark devices list`, or local)")
        }
        if let problem = DeviceName.problem(with: device) { throw .invalidParameter("device", problem) }
        self.device = device
        switch parameters.get("deliver") {
        case nil, "false", "0": deliver = false
        case "true", "1", "": deliver = true
        case let value?: throw .invalidParameter("deliver", "\"\(value)\" is not true or false")
        }
        columns = parameters.get("columns")
        if let columns {
            // Checked before the body is read, as `waymark import --columns` checks it.
            do { _ = try CSVColumns(parsing: columns) } catch { throw .invalidParameter("columns", error.message) }
        }
        let name = parameters.get("name") ?? "upload"
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.utf8.contains(0), name.utf8.count <= 255 else {
            throw .invalidParameter("name", "\"\(name)\" is not a file name (1–255 bytes, no '/')")
        }
        self.name = name
    }
}
