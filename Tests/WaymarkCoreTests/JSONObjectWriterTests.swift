import Foundation
import Testing
import WaymarkCore

/// JSON Lines records: string escapes as RFC 8259 requires (the fast path for plain text and the
/// slow one agree with JSONSerialization's reading), keys in the order added.
@Suite struct JSONObjectWriterTests {
    @Test(arguments: ["hut", "Zürich – Hütte ⛰", "say \"hi\"", "back\\slash", "two\nlines\ttab\r", "bell\u{07}", "", "/path/x"])
    func aStringReadsBackAsItself(_ text: String) throws {
        var w = JSONObjectWriter()
        w.add("value", text)
        w.add(#"odd "key""#, 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(w.object.utf8)) as? [String: Any])
        #expect(object["value"] as? String == text)
        #expect(object[#"odd "key""#] as? Int == 1)
    }

    @Test func keysStayInTheOrderAdded() {
        var w = JSONObjectWriter()
        w.add("b", "x")
        w.add("a", 2.5)
        w.add("c", nil as String?)
        #expect(w.object == #"{"b":"x","a":2.5,"c":null}"#)
        #expect(JSONObjectWriter.quoted("bell\u{07}") == #""bell\u0007""#)
    }
}
