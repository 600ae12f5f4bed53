import Foundation
import WaymarkCore
import WaymarkRegions

/// Loads regions from GeoJSON files and folders.
public enum GeoJSONRegionLoader {
    /// Loads every region from `paths`, in order. A path is a file, or a folder whose
    /// `*.geojson` and `*.json` files (not `*.metadata.json`, not in subfolders) are read in
    /// name order. Identifiers must be unique across the whole load; a duplicate is an error
    /// naming both features.
    public static func load(
        paths: [String], idProperty: String? = nil,
        unnamedFeatures: GeoJSONRegionDecoder.UnnamedFeatures = .reject
    ) throws(GeoJSONError) -> [Region] {
        let decoder = GeoJSONRegionDecoder(idProperty: idProperty, unnamedFeatures: unnamedFeatures)
        var regions: [Region] = []
        var seen: [String: (path: String, location: SourceLocation)] = [:]
        for path in paths {
            for file in try regionFiles(at: path) {
                let bytes = try read(file)
                for decoded in try decoder.decode(bytes, file: file) {
                    let id = decoded.region.identifier
                    if let first = seen[id] {
                        throw GeoJSONError(
                            code: .duplicateIdentifier,
                            message: "duplicate identifier \"\(id)\"; first used by \(first.path.isEmpty ? "the feature" : first.path) at \(first.location)",
                            file: file, location: decoded.location, path: decoded.path,
                            featureIndex: decoded.featureIndex, featureIdentifier: id)
                    }
                    seen[id] = (decoded.path, decoded.location)
                    regions.append(decoded.region)
                }
            }
        }
        return regions
    }

    /// The region files a path stands for: itself if it is a file, or the folder's
    /// `*.geojson` / `*.json` files except `*.metadata.json`, sorted by name.
    public static func regionFiles(at path: String) throws(GeoJSONError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw GeoJSONError(code: .unreadable, message: "no such file or folder", file: path)
        }
        guard isDirectory.boolValue else { return [path] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw GeoJSONError(code: .unreadable, message: "cannot list the folder: \(error.localizedDescription)", file: path)
        }
        let files = names.filter {
            ($0.hasSuffix(".geojson") || $0.hasSuffix(".json")) && !$0.hasSuffix(".metadata.json")
        }.sorted().map { path.hasSuffix("/") ? path + $0 : path + "/" + $0 }
        guard !files.isEmpty else {
            throw GeoJSONError(code: .unreadable, message: "the folder has no .geojson or .json files", file: path)
        }
        return files
    }

    static func read(_ file: String) throws(GeoJSONError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw GeoJSONError(code: .unreadable, message: "cannot read the file", file: file)
        }
        return [UInt8](data)
    }
}
