import Foundation
import WaymarkImportJob

/// `waymark import`'s progress: a bar on a terminal's standard error (bytes, fixes, rate, ETA),
/// JSON Lines on standard output with `--json`, nothing otherwise. At most four updates a second.
struct ImportProgressBar {
    let json: Bool
    let terminal: Bool
    private var last: ContinuousClock.Instant?
    private var shown = false

    init(json: Bool, terminal: Bool) {
        self.json = json
        self.terminal = terminal
    }

    mutating func show(_ progress: ImportProgress) {
        let now = ContinuousClock.now
        let final = progress.phase == .done
        if !final, let last, now - last < .milliseconds(250) { return }
        last = now
        if json {
            // Unbuffered, so a program reading the pipe sees each line as it is made.
            FileHandle.standardOutput.write(Data((progress.json + "\n").utf8))
        } else if terminal {
            Terminal.status(Self.line(progress))
            shown = true
        }
    }

    /// Ends the bar's line.
    mutating func end() {
        if shown { Terminal.status(nil) }
        shown = false
    }

    /// `reading [#######.............] 36% 540 MB of 1.5 GB, 1,204,332 fixes, 48 MB/s, 20 s left`.
    static func line(_ progress: ImportProgress) -> String {
        var text = progress.phase.rawValue
        if let total = progress.bytesTotal, total > 0 {
            let fraction = min(1, Double(progress.bytesRead) / Double(total))
            let filled = Int(fraction * 20)
            text += " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled) + "]"
            text += " \(Int(fraction * 100))% \(megabytes(progress.bytesRead)) of \(megabytes(total))"
        } else {
            text += " \(megabytes(progress.bytesRead))"
        }
        if progress.phase == .evaluating {
            text += ", \(progress.fixesEvaluated) of \(progress.fixesAdded) fixes evaluated, \(progress.events) events"
        } else {
            text += ", \(progress.fixesAdded) new fixes, \(progress.fixesPresent) present"
        }
        text += ", \(megabytes(Int64(progress.rate)))/s"
        if let remaining = progress.remaining, progress.phase != .evaluating { text += ", \(Int(remaining)) s left" }
        return text
    }

    static func megabytes(_ bytes: Int64) -> String {
        bytes >= 1_000_000_000 ? String(format: "%.1f GB", Double(bytes) / 1e9) : String(format: "%.0f MB", Double(bytes) / 1e6)
    }
}
