import Foundation
import Testing

@testable import WaymarkAPI

/// Issue 48, read from the files the binary serves: the page has nothing its
/// Content-Security-Policy would refuse (inline script, handlers or styles), and its scripts put
/// no string into the page as HTML — no `innerHTML` and the like, and Leaflet's tooltips and
/// popups get elements (`textContent(…)`), never strings it would parse. The browser test shows
/// the same in Chromium; this says which line broke the rule.
@Suite struct WebPageMarkupTests {
    static func text(_ name: String) throws -> String {
        String(decoding: try #require(WebAssets.files[name]).bytes, as: UTF8.self)
    }

    static func matches(_ pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range, in: text).map { String(text[$0]) }
        }
    }

    @Test func theDocumentHasNoInlineScriptHandlerOrStyle() throws {
        let page = try Self.text("index.html")
        #expect(try Self.matches(#"<script(?![^>]*\bsrc=)[^>]*>"#, in: page).isEmpty, "inline <script>")
        #expect(try Self.matches(#"\son[a-z]+\s*="#, in: page).isEmpty, "inline event handler")
        #expect(try Self.matches(#"<style|\sstyle\s*="#, in: page).isEmpty, "inline style")
        #expect(try Self.matches(#"javascript:"#, in: page).isEmpty)
    }

    @Test(arguments: WebAssets.files.keys.filter { $0.hasSuffix(".js") }.sorted())
    func scriptsPutNoStringInAsHTML(name: String) throws {
        let script = try Self.text(name)
        let html = try Self.matches(#"\.(innerHTML|outerHTML|insertAdjacentHTML)\b|document\.write|\beval\(|new Function\("#, in: script)
        #expect(html.isEmpty, "\(name): \(html)")
        // Leaflet parses a string tooltip or popup as HTML.
        let bound = try Self.matches(#"\.bind(Tooltip|Popup)\((?!textContent\()[^)]*"#, in: script)
        #expect(bound.isEmpty, "\(name): pass textContent(…), not a string: \(bound)")
    }
}
