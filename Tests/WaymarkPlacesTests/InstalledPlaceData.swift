import Foundation
import WaymarkPlaces

/// The place data scripts/install-dependencies.sh installs (or $WAYMARK_PLACE_DATA), read once
/// for all the tests that need it. Missing data is a failure, not a skip: CI installs it.
enum InstalledPlaceData {
    static let path = ProcessInfo.processInfo.environment["WAYMARK_PLACE_DATA"].flatMap { $0.isEmpty ? nil : $0 }
        ?? "/usr/local/share/waymark/places.bin"

    static let index: Result<PlaceIndex, InstalledPlaceDataError> = {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(InstalledPlaceDataError(description: "no place data at \(path): run scripts/install-dependencies.sh (it builds the file)"))
        }
        do {
            return .success(try PlaceIndex(bytes: [UInt8](data)))
        } catch {
            return .failure(InstalledPlaceDataError(description: "\(path): \(error); rerun scripts/install-dependencies.sh"))
        }
    }()
}

struct InstalledPlaceDataError: Error, CustomStringConvertible {
    var description: String
}
