import WaymarkImport
import WaymarkStore

/// What an import did: its stored record (counts, state), and what it did not read or could
/// not read.
public struct ImportOutcome: Sendable {
    public var record: ImportRecord
    /// Whether it took up an interrupted import of the same files.
    public var resumed: Bool
    /// Files an earlier import read whole, not read again (their fixes counted as present).
    public var alreadyImported: [String]
    /// Entries in folders and archives that are no history format (Takeout's HTML, pictures…), with why.
    public var skipped: [(name: String, reason: String)]
    /// Files that could not be read, or not to the end: what came before the error was kept.
    public var failures: [ImportError]

    /// `imported 1,204 new, 30 already present …`: the summary line people read.
    public var summary: String {
        var text = "imported \(Self.grouped(record.fixesAdded)) new, \(Self.grouped(record.fixesPresent)) already present"
        if record.reported > 0 { text += ", \(Self.grouped(record.reported)) reported visits and activities" }
        text += "; \(Self.grouped(record.events)) events computed"
        if !alreadyImported.isEmpty { text += "; \(alreadyImported.count) file(s) imported before, not read again" }
        if !failures.isEmpty { text += "; \(failures.count) file(s) not read to the end" }
        return text
    }

    /// 1204332 → `1,204,332`.
    public static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return value < 0 ? "-" + out : out
    }
}
