import Foundation
import Testing
import WaymarkTestSupport

/// Every shell block of README.md run as written, in order, in one shell session, as a newcomer
/// would paste them: a fresh HOME and runtime folder, a working folder holding the sample data
/// (Tracks/, Regions/, Beacons/, examples/) and `.build/release/waymark` (the executable under
/// test). So the README cannot drift from what works. Blocks are marked with
/// `<!-- readme-test: … -->` when they are skipped (with the reason), interrupted like Ctrl-C,
/// or give the expected output of the block above.
@Suite struct ReadmeCommandsTests {
    static let readme = ProjectPaths.repositoryRoot.appendingPathComponent("README.md")

    @Test func theDirectivesAreUnderstood() throws {
        let blocks = try ReadmeBlock.parse(String(contentsOf: Self.readme, encoding: .utf8))
        #expect(blocks.contains { $0.directive == .run })
        #expect(throws: ReadmeError.self) { try ReadmeBlock.parse("<!-- readme-test: sometimes -->\n```sh\nls\n```\n") }
        #expect(throws: ReadmeError.self) { try ReadmeBlock.parse("```sh\nls\n") }
        let indented = try ReadmeBlock.parse("- item\n\n  ```sh\n  ls -l \\\n      Tracks\n  ```\n")
        #expect(indented == [ReadmeBlock(line: 3, language: "sh", text: "ls -l \\\n    Tracks", directive: .run)])
    }

    @Test func everyCommandRunsAsWritten() async throws {
        let blocks = try ReadmeBlock.parse(String(contentsOf: Self.readme, encoding: .utf8))
        let session = try ReadmeSession()
        let script = try session.script(for: blocks)
        // A session of its own, so a run that hangs is stopped whole. Foundation's Process
        // starts children with the spawning thread's signals blocked, as no terminal does (a
        // Ctrl-C would stay pending): Python clears the mask, then runs the shell.
        let shell = try BackgroundProcess(
            URL(fileURLWithPath: "/usr/bin/python3"),
            ["-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
             "/usr/bin/setsid", "--wait", "/bin/bash", script],
            environment: session.environment, currentDirectory: session.work)
        let status = try await shell.wait(timeout: 300)
        if status == nil, let group = session.processGroup {
            kill(-group, SIGKILL)
            Issue.record("README.md:\(session.currentBlock) did not finish in 300 s; its stderr:\n\(session.errors(of: session.currentBlock).suffix(3000))")
        }
        try #require(status == 0, "the README's commands failed:\n\(shell.stderr.suffix(4000))")

        var lastRun: ReadmeBlock?
        for block in blocks {
            switch block.directive {
            case .run:
                lastRun = block
            case .interrupt:
                #expect(!session.output(of: block).isEmpty, "README.md:\(block.line) printed nothing before it was interrupted")
            case .output:
                let shown = try #require(lastRun, "README.md:\(block.line): no shell block above this output")
                let expected = block.text.split(separator: "\n").map(String.init)
                let actual = session.output(of: shown).split(separator: "\n").map(String.init)
                #expect(
                    Self.matches(expected: expected, actual: actual),
                    "README.md:\(block.line) shows output that README.md:\(shown.line) does not print; it printed:\n\(actual.prefix(10).joined(separator: "\n"))")
            case .skip, .none:
                break
            }
        }
    }

    /// The lines shown appear in the output in the same order; `…` stands for any lines (without
    /// one, the output is exactly what is shown).
    static func matches(expected: [String], actual: [String]) -> Bool {
        guard expected.contains("…") else { return expected == actual }
        var remaining = actual[...]
        for line in expected where line != "…" {
            guard let found = remaining.firstIndex(of: line) else { return false }
            remaining = remaining[remaining.index(after: found)...]
        }
        return true
    }
}

/// The newcomer's machine for the README test: a fresh session with a runtime folder (the
/// README's curl commands use `$XDG_RUNTIME_DIR`), a working folder holding the sample data, and
/// the script that runs the blocks.
struct ReadmeSession {
    let fresh: FreshSession
    let work: URL
    var directory: TemporaryDirectory { fresh.directory }
    var environment: [String: String] { fresh.environment }

    init() throws {
        fresh = try FreshSession(.emptyFolder)
        let files = FileManager.default
        work = URL(fileURLWithPath: fresh.directory.path("work"))
        for folder in ["work/.build/release", "outputs"] {
            try files.createDirectory(atPath: fresh.directory.path(folder), withIntermediateDirectories: true)
        }
        for sample in ["Tracks", "Regions", "Beacons", "examples"] {
            try files.createSymbolicLink(
                atPath: work.path + "/" + sample, withDestinationPath: ProjectPaths.repositoryRoot.path + "/" + sample)
        }
        try files.createSymbolicLink(atPath: work.path + "/.build/release/waymark", withDestinationPath: ProjectPaths.waymarkExecutable.path)
    }

    /// The shell's process group (and session), which it writes down first.
    var processGroup: pid_t? {
        (try? String(contentsOfFile: directory.path("outputs/pgid"), encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The README line of the block the shell is running (or ran last).
    var currentBlock: String {
        ((try? String(contentsOfFile: directory.path("outputs/current"), encoding: .utf8)) ?? "none").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func output(of block: ReadmeBlock) -> String {
        (try? String(contentsOfFile: directory.path("outputs/\(block.line).out"), encoding: .utf8)) ?? ""
    }

    func errors(of line: String) -> String {
        (try? String(contentsOfFile: directory.path("outputs/\(line).err"), encoding: .utf8)) ?? ""
    }

    /// One bash script: each block in the same shell (so `export` and `&` jobs carry on, as in a
    /// terminal), its stdout and stderr kept per block; the first failure stops it and names the
    /// README line. Background jobs still running at the end are stopped with SIGTERM.
    func script(for blocks: [ReadmeBlock]) throws -> String {
        let outputs = directory.path("outputs")
        var script = """
            set -eE -o pipefail
            echo $$ >"\(outputs)/pgid"
            exec 3>&2
            block=none
            trap 'echo "README.md:$block: failed (exit status $?); its stderr:" >&3; cat "\(outputs)/$block.err" >&3' ERR
            trap 'status=$?; trap - ERR; kill $(jobs -p) 2>/dev/null || true; wait; exit $status' EXIT

            """
        for block in blocks {
            let out = "\(outputs)/\(block.line).out", err = "\(outputs)/\(block.line).err"
            switch block.directive {
            case .run:
                script += "block=\(block.line); echo $block >\"\(outputs)/current\"\n{\n\(block.text)\n} >\"\(out)\" 2>\"\(err)\"\n"
            case .interrupt(let seconds):
                let file = try directory.write("block-\(block.line).sh", block.text + "\n")
                // Ctrl-C signals the terminal's whole foreground group, so the block runs as a
                // job of its own group (`set -m`: without job control, bash starts background
                // commands with SIGINT ignored) and SIGINT goes to that group. Still running then
                // is what it should be; having ended before, it must have succeeded.
                script += """
                    block=\(block.line); echo $block >"\(outputs)/current"
                    {
                    set -m; bash "\(file)" & interrupted=$!; set +m
                    sleep \(seconds)
                    if kill -INT -- -$interrupted 2>/dev/null; then wait $interrupted || true; else wait $interrupted; fi
                    } >"\(out)" 2>"\(err)"

                    """
            case .skip, .output, .none:
                continue
            }
        }
        return try directory.write("readme.sh", script)
    }
}
