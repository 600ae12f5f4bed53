import Foundation

/// Paths tests and benchmarks need: the repository itself and the third-party data beside it
/// in `../shared/data` (read there, never copied into the repository).
public enum ProjectPaths {
    /// The repository's root, found from this file's location at build time.
    public static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // …/Sources/WaymarkTestSupport/ProjectPaths.swift
        return url.standardizedFileURL
    }()

    /// `../shared/data` beside the repository.
    public static let sharedData: URL = repositoryRoot
        .deletingLastPathComponent().appendingPathComponent("shared/data").standardizedFileURL

    /// A file under `../shared/data`, e.g. `sharedData("gpx/tcxtest.gpx")`.
    public static func sharedData(_ relativePath: String) -> URL {
        sharedData.appendingPathComponent(relativePath)
    }

    /// Every `.gpx` file in `../shared/data/gpx`, sorted by name.
    public static func sharedGPXFiles() throws -> [URL] {
        let folder = sharedData("gpx")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".gpx") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// The built `waymark` executable in the same build folder as the running tests.
    public static var waymarkExecutable: URL {
        let bundle = Bundle.main.bundleURL  // the .build/<config> folder holding the test runner
        let candidate = bundle.appendingPathComponent("waymark")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return bundle.deletingLastPathComponent().appendingPathComponent("waymark")
    }
}
