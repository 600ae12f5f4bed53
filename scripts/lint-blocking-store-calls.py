#!/usr/bin/env python3
"""Fails when a synchronous SQLite/store call sits in an async context (docs/durability.md,
"Nothing on the cooperative pool waits for SQLite").

The rule. Inside the body of an `async` function or initialiser, or of a `Task { … }` /
`addTask { … }` closure, in Sources/ outside Sources/WaymarkStore (the store's own executor),
none of these may appear:

  - `try store.NAME(`, `try database.NAME(` or `try X.store.NAME(` (also `try?`, `try!`): a
    synchronous call on a `WaymarkStore` value (the project names them `store`, or `database`
    in the commands; `try await store.NAME(` is an async call and fine);
  - `store.database.`, and `read` / `write` / `inDatabase` / `writeWithoutTransaction` on
    `database`, `dbQueue` or `dbPool` not preceded by `await` (GRDB's synchronous access;
    an awaited one is an async API, GRDB's or PostgreSQL's);
  - opening an SQLite file: `WaymarkStore(path:`, `WaymarkStore.temporary(`, `MBTilesFile(path:`.

Allowed: anything inside the closure given to `offPool` (`store.offPool { … }`, which runs on
the store's own queue), to `Thread { … }` or to a DispatchQueue's `async { … }` (threads of
their own), and nested non-async functions (their callers are not checked: the
lint sees one body at a time, not what it calls). A line can opt out with a trailing
`// lint: blocking-store-call-allowed (REASON)`, the reason saying why it cannot block.

Usage: scripts/lint-blocking-store-calls.py [ROOT]   (default: the repository root)
       scripts/lint-blocking-store-calls.py --self-test
Prints `FILE:LINE: …` for each finding and exits 1 when there is any.
"""
import os
import re
import sys

CALLS = [
    (re.compile(r"\btry[?!]?\s+(?:[A-Za-z_][\w.]*\.)?(?:store|database)\.(?!offPool\b)([A-Za-z_]\w*)\s*\("), "synchronous store call `store.{0}`"),
    (re.compile(r"\bstore\.database\."), "the store's database used directly"),
    (re.compile(r"\b(?:database|dbQueue|dbPool)\.(read|write|inDatabase|writeWithoutTransaction)\b"), "GRDB `{0}` without `await`"),
    (re.compile(r"\bWaymarkStore\s*\(\s*path\s*:"), "opening the store synchronously (use `WaymarkStore.open`)"),
    (re.compile(r"\bWaymarkStore\.temporary\s*\("), "opening a temporary store"),
    (re.compile(r"\bMBTilesFile\s*\(\s*path\s*:"), "opening an MBTiles file"),
]
ALLOWED = "lint: blocking-store-call-allowed"
# A closure whose body runs off the cooperative pool.
OFF_POOL = re.compile(r"(?:\boffPool\s*\(?|\bThread|\.async(?:\s*\([^()]*\))?)$")
AWAITED = re.compile(r"\bawait\s*$")
RAW_STRING = re.compile(r'#+"')
HASHES = re.compile(r"#*")
TASK = re.compile(r"\b(?:Task(?:\.detached)?|addTask(?:UnlessCancelled)?)(?:\s*\([^()]*\))?$")


def blank(source):
    """The source with comments and string literals blanked (same length, newlines kept), and the
    lines that carry the opt-out marker."""
    out = []
    allowed = set()
    i, n, line = 0, len(source), 1
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
            if ALLOWED in source[i:end]:
                allowed.add(line)
            out.append(" " * (end - i))
            i = end
        elif source.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if source.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif source.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            chunk = source[i:j]
            out.append(re.sub(r"[^\n]", " ", chunk))
            line += chunk.count("\n")
            i = j
        elif c == '"' or (c == "#" and RAW_STRING.match(source, i)):
            hashes = len(HASHES.match(source, i).group(0))
            start = i + hashes
            triple = source.startswith('"""', start)
            close = ('"""' if triple else '"') + "#" * hashes
            j = start + (3 if triple else 1)
            while j < n:
                if source.startswith(close, j) and (hashes or source[j - 1] != "\\" or source[j - 2] == "\\"):
                    j += len(close)
                    break
                if not triple and source[j] == "\n":
                    break
                j += 1
            # Interpolations are blanked too: their braces would confuse the scan.
            chunk = source[i:j]
            out.append(re.sub(r"[^\n]", " ", chunk))
            line += chunk.count("\n")
            i = j
        else:
            if c == "\n":
                line += 1
            out.append(c)
            i += 1
    return "".join(out), allowed


FUNC = re.compile(r"\b(func\s+[^\s(<]+|init[?!]?)\s*(<[^>{]*>)?\s*\(")
# What a signature cannot hold: a requirement without a body ended before it.
NEXT_DECLARATION = re.compile(r"\n\s*(?:@|#|func\b|init\b|var\b|let\b|case\b|subscript\b|static\b|public\b|private\b|fileprivate\b|internal\b|nonisolated\b|mutating\b|typealias\b|associatedtype\b|deinit\b)")


def function_bodies(text):
    """(brace offset, async?, name) of every function and initialiser with a body."""
    for match in FUNC.finditer(text):
        depth, j = 1, match.end()
        while j < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        k = j
        while k < len(text) and text[k] not in "{};":
            k += 1
        if k >= len(text) or text[k] != "{" or NEXT_DECLARATION.search(text[j:k]):
            continue
        effects = text[j:k].split("->", 1)[0]
        yield k, bool(re.search(r"\basync\b", effects)), match.group(1).replace("func ", "").strip()


def closures_after(text, pattern, reach):
    """Brace offsets of closures whose opening brace follows `pattern` (matched at the end of the
    `reach` characters before it)."""
    for match in re.finditer(r"\{", text):
        if pattern.search(text[max(0, match.start() - reach):match.start()].rstrip()):
            yield match.start()


def async_regions(text):
    """(start, end, name) of every async context's body in `text` (comments and strings
    blanked): async functions and initialisers, Task/addTask closures."""
    regions = [(k, matching_brace(text, k), name) for k, is_async, name in function_bodies(text) if is_async]
    regions += [(k, matching_brace(text, k), "Task { }") for k in closures_after(text, TASK, 80)]
    return regions


def matching_brace(text, start):
    depth = 0
    for j in range(start, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(text)


def excluded_regions(text):
    """Bodies that do not run on the cooperative pool although inside an async context:
    `offPool`, `Thread` and `DispatchQueue.async` closures, and nested functions that are not async."""
    regions = [(k, matching_brace(text, k)) for k in closures_after(text, OFF_POOL, 40)]
    regions += [(k, matching_brace(text, k)) for k, is_async, _ in function_bodies(text) if not is_async]
    return regions


def lint_file(path, display):
    with open(path, encoding="utf-8") as f:
        source = f.read()
    text, allowed = blank(source)
    contexts = async_regions(text)
    if not contexts:
        return []
    excluded = excluded_regions(text)
    line_starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]

    def line_of(offset):
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    findings = []
    seen = set()
    for pattern, what in CALLS:
        for match in pattern.finditer(text):
            at = match.start()
            if AWAITED.search(text[max(0, at - 40):at]):
                continue  # an async API of the same name (PostgreSQL's `database.write`)
            inside = [c for c in contexts if c[0] < at < c[1]]
            if not inside:
                continue
            # The innermost async context; excluded if an excluded body sits between it and the call.
            context = max(inside, key=lambda c: c[0])
            if any(context[0] < e[0] < at < e[1] for e in excluded):
                continue
            line = line_of(at)
            if line in allowed or (line, at) in seen:
                continue
            seen.add((line, at))
            name = match.group(1) if match.groups() else ""
            findings.append(
                f"{display}:{line}: {what.format(name)} in async `{context[2]}`: "
                "run it in `store.offPool { … }` (docs/durability.md, \"Nothing on the cooperative pool\")")
    return sorted(findings, key=lambda s: int(s.split(":")[1]))


def lint_tree(root):
    findings = []
    sources = os.path.join(root, "Sources")
    for folder, _, files in os.walk(sources):
        relative = os.path.relpath(folder, root)
        if relative == os.path.join("Sources", "WaymarkStore") or relative.startswith(os.path.join("Sources", "WaymarkStore") + os.sep):
            continue
        for name in sorted(files):
            if name.endswith(".swift"):
                path = os.path.join(folder, name)
                findings += lint_file(path, os.path.relpath(path, root))
    return findings


EXPECTED = re.compile(r"//\s*expect: blocking\s*$")


def self_test(root):
    """The lint on its fixtures: every line marked `// expect: blocking` is found, nothing else."""
    folder = os.path.join(root, "Tests", "Lint", "BlockingStoreCalls")
    failures = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        with open(path, encoding="utf-8") as f:
            expected = {i + 1 for i, line in enumerate(f.read().split("\n")) if EXPECTED.search(line)}
        found = {int(finding.split(":")[1]) for finding in lint_file(path, name)}
        if found != expected:
            failures.append(f"{name}: expected findings on lines {sorted(expected)}, found {sorted(found)}")
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


def main(arguments):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if arguments[:1] == ["--self-test"]:
        return self_test(root)
    findings = lint_tree(arguments[0] if arguments else root)
    for finding in findings:
        print(finding)
    if findings:
        print(f"lint: {len(findings)} synchronous store call(s) in async code (rule: scripts/lint-blocking-store-calls.py)", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
