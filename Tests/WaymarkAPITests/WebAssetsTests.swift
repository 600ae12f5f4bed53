import Foundation
import Testing
import WaymarkTestSupport

@testable import WaymarkAPI

/// The page the binary serves is the page in `Sources/WaymarkAPI/Web`: every file there is
/// embedded (a file added to the folder but not to Package.swift's resources fails here) and
/// served with its content type.
@Suite struct WebAssetsTests {
    static let folder = ProjectPaths.repositoryRoot.appendingPathComponent("Sources/WaymarkAPI/Web")

    @Test func theEmbeddedFilesAreTheFilesInWeb() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(WebAssets.files.keys.sorted() == names, "list every file of Web/ in Package.swift's resources and in WebAssets")
        for name in names {
            let bytes = try Data(contentsOf: Self.folder.appendingPathComponent(name))
            #expect(WebAssets.files[name].map { Data($0.bytes) } == bytes, "\(name) is not what the binary carries")
        }
        #expect(WebAssets.files["index.html"]?.contentType == "text/html; charset=utf-8")
        #expect(WebAssets.files["app.js"]?.contentType == "text/javascript; charset=utf-8")
    }
}
