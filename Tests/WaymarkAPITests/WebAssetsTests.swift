import Foundation
import Testing
import WaymarkTestSupport

@testable import WaymarkAPI

/// The page the binary serves is the page in `Sources/WaymarkAPI/Web`: `WebAssets.swift` is
/// generated from those files by `scripts/embed-web.sh` and committed, so an edit that was not
/// embedded fails here rather than shipping a stale page.
@Suite struct WebAssetsTests {
    static let folder = ProjectPaths.repositoryRoot.appendingPathComponent("Sources/WaymarkAPI/Web")

    @Test func theEmbeddedFilesAreTheFilesInWeb() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(WebAssets.files.keys.sorted() == names, "run scripts/embed-web.sh")
        for name in names {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            #expect(WebAssets.files[name]?.text == text, "\(name) changed since it was embedded: run scripts/embed-web.sh")
        }
        #expect(WebAssets.files["index.html"]?.contentType == "text/html; charset=utf-8")
        #expect(WebAssets.files["app.js"]?.contentType == "text/javascript; charset=utf-8")
    }
}
