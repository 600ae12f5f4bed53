import Testing
import WaymarkGeoJSON

private func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode { try JSONParser.parse(Array(text.utf8)) }

@Test("values, nesting, escapes and offsets")
func parsesValues() throws {
    let node = try parse(#" {"a": [1, -2.5e3, true, false, null], "s": "x\"\\\/\n\u00e9\ud83d\ude00", "o": {}} "#)
    guard case .object(let members) = node.value else {
        Issue.record("not an object")
        return
    }
    #expect(members.map(\.key) == ["a", "s", "o"])
    #expect(node.start == 1)
    guard case .array(let a) = node.member("a")?.value else {
        Issue.record("a is not an array")
        return
    }
    #expect(a.count == 5)
    if case .number(let d) = a[1].value { #expect(d == -2500) } else { Issue.record("not a number") }
    if case .string(let s) = node.member("s")?.value { #expect(s == "x\"\\/\né😀") } else { Issue.record("not a string") }
}

/// Numbers through the fast path and the fallback must equal the standard library's
/// correctly rounded conversion.
@Test(
    "numbers are correctly rounded",
    arguments: [
        "0", "-0", "1", "-118.758792", "34.17389770", "-155.044230143229157", "19.366943359375", "1e22", "1e23",
        "123456789012345678901234567890", "0.000001234", "2.2250738585072014e-308", "1.7976931348623157e308",
        "9007199254740993", "0.1", "3.141592653589793238462643383279", "1E-7", "5e-324", "100e-2",
    ])
func numbersRoundCorrectly(_ text: String) throws {
    guard case .number(let d) = try parse(text).value else {
        Issue.record("not a number")
        return
    }
    #expect(d == Double(text)!)
    #expect(d.sign == Double(text)!.sign)
}

struct SyntaxCase: Sendable, CustomTestStringConvertible {
    var text: String
    var line: Int
    var column: Int
    var message: String
    var testDescription: String { text.debugDescription }
}

@Test(
    "syntax errors with line and column",
    arguments: [
        SyntaxCase(text: "", line: 1, column: 1, message: "empty"),
        SyntaxCase(text: "{\"type\": \"FeatureCollection\",\n \"features\": [1,]}", line: 2, column: 17, message: "expected a value"),
        SyntaxCase(text: "{\"a\" 1}", line: 1, column: 6, message: "expected ':'"),
        SyntaxCase(text: "[1, 2", line: 1, column: 6, message: "end of input in an array opened at 1:1"),
        SyntaxCase(text: "[01]", line: 1, column: 2, message: "leading zeros"),
        SyntaxCase(text: "[1.]", line: 1, column: 2, message: "after '.'"),
        SyntaxCase(text: "[-]", line: 1, column: 2, message: "expected a digit"),
        SyntaxCase(text: "\n\n  [\"abc", line: 3, column: 4, message: "unterminated string"),
        SyntaxCase(text: "[\"a\\x\"]", line: 1, column: 4, message: "invalid escape"),
        SyntaxCase(text: "[\"\\ud83d\"]", line: 1, column: 3, message: "unpaired surrogate"),
        SyntaxCase(text: "[tru]", line: 1, column: 2, message: "expected 'true'"),
        SyntaxCase(text: "{} x", line: 1, column: 4, message: "after the JSON value"),
        SyntaxCase(text: "{\"é\": ?}", line: 1, column: 7, message: "character '?'"),
        SyntaxCase(text: "[\"a\tb\"]", line: 1, column: 4, message: "control character"),
        SyntaxCase(text: "{,}", line: 1, column: 2, message: "member name"),
    ])
func syntaxErrors(_ c: SyntaxCase) {
    do {
        _ = try parse(c.text)
        Issue.record("parsed invalid JSON")
    } catch {
        #expect(error.line == c.line)
        #expect(error.column == c.column)
        #expect(error.message.contains(c.message), "\(error.message)")
    }
}

@Test("nesting deeper than the limit is an error, not a crash")
func deepNesting() {
    let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(throws: JSONSyntaxError.self) { try parse(text) }
    #expect((try? parse(String(repeating: "[", count: 500) + String(repeating: "]", count: 500))) != nil)
}
