import Foundation

/// The fenced code blocks of a Markdown file, with the `<!-- readme-test: … -->` directive on
/// the line before each, if any. Fences may be indented (inside list items); their lines are
/// given back with that indentation removed.
struct ReadmeBlock: Equatable {
    /// What the test does with a block.
    enum Directive: Equatable {
        /// Runs in the shell session, in order (a `sh` block without a directive).
        case run
        /// Not run, for the reason given.
        case skip(String)
        /// Runs, and is sent SIGINT after this many seconds, as a user's Ctrl-C: it must still
        /// be running then, having printed something.
        case interrupt(seconds: Int)
        /// The expected stdout of the nearest `sh` block above; `…` lines stand for any lines.
        case output
        /// Not a shell block and no directive: prose in a fence.
        case none
    }

    var line: Int
    var language: String
    var text: String
    var directive: Directive

    /// Reads the blocks of `markdown`; a directive the test does not know is an error naming
    /// its line, so the README cannot ask for something that is silently not done.
    static func parse(_ markdown: String) throws -> [ReadmeBlock] {
        var blocks: [ReadmeBlock] = []
        var pending: (line: Int, text: String)?
        var open: (line: Int, language: String, indent: Int, lines: [String])?
        for (index, raw) in markdown.components(separatedBy: "\n").enumerated() {
            let number = index + 1
            let trimmed = raw.drop { $0 == " " }
            if var block = open {
                if trimmed == "```" {
                    let directive = try directive(pending, language: block.language)
                    blocks.append(ReadmeBlock(line: block.line, language: block.language, text: block.lines.joined(separator: "\n"), directive: directive))
                    open = nil
                    pending = nil
                } else {
                    block.lines.append(String(raw.dropFirst(min(block.indent, raw.prefix { $0 == " " }.count))))
                    open = block
                }
            } else if trimmed.hasPrefix("```") {
                open = (number, String(trimmed.dropFirst(3)), raw.count - trimmed.count, [])
            } else if trimmed.hasPrefix("<!-- readme-test:"), trimmed.hasSuffix("-->") {
                pending = (number, trimmed.dropFirst("<!-- readme-test:".count).dropLast(3).trimmingCharacters(in: .whitespaces))
            } else if !trimmed.isEmpty, let directive = pending {
                throw ReadmeError("README.md:\(directive.line): a readme-test directive must come right before a fence")
            }
        }
        if let open { throw ReadmeError("README.md:\(open.line): the fence is never closed") }
        return blocks
    }

    private static func directive(_ pending: (line: Int, text: String)?, language: String) throws -> Directive {
        guard let pending else { return language == "sh" ? .run : .none }
        let text = pending.text
        if text.hasPrefix("skip (") && text.hasSuffix(")") { return .skip(String(text.dropFirst(6).dropLast())) }
        if text == "output of the block above" { return .output }
        if text.hasPrefix("interrupt after "), text.hasSuffix(" s"),
            let seconds = Int(text.dropFirst("interrupt after ".count).dropLast(2)), seconds > 0
        {
            return .interrupt(seconds: seconds)
        }
        throw ReadmeError("README.md:\(pending.line): unknown readme-test directive '\(text)'")
    }
}

struct ReadmeError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
