"""Issue 40's import figures in one run (called by Benchmarks/import.sh, which builds and generates):

  (a) first import of a Takeout Records.json into a fresh store that holds the regions (regions on),
  (b) re-import of the same file into that store (expected: 0 added): as is (a file read whole
      before is recognised and not read again), and with --reread (every fix read and found present),
  (c) import of the same points as GPX into a fresh store with the same regions,
  (d) baselines on the same files: Python's json.load and ijson (Records.json), gpxpy (GPX).

Each waymark run is under `/usr/bin/time -v` (peak RSS, CPU) and timed by the wall clock; a figure
is the median of --repeat runs. A baseline whose memory would not fit (json.load and gpxpy hold
the whole document: about 6× and 25× the file) runs on --baseline-data instead, and says so.
Prints one JSON object per measurement, then a table and one line per figure for BENCHMARKS.md.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
JSON_LOAD_BYTES_PER_BYTE = 6   # json.load's peak RSS over the file's size, measured on generated files (5.6×)
GPXPY_BYTES_PER_BYTE = 26      # gpxpy's (24× on the generated GPX)


def available_memory():
    with open("/proc/meminfo") as handle:
        for line in handle:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return 0


def timed(command, env, stdout_path):
    """Runs command under /usr/bin/time -v; (wall seconds, peak RSS bytes, CPU seconds, exit status, context
    switches (voluntary: waits for I/O or locks; involuntary: the CPU taken by other processes))."""
    report = stdout_path + ".time"
    start = time.perf_counter()
    with open(stdout_path, "w") as out, open(stdout_path + ".err", "w") as err:
        status = subprocess.run(["/usr/bin/time", "-v", "-o", report, *command], stdout=out, stderr=err, env=env).returncode
    wall = time.perf_counter() - start
    text = open(report).read()
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1)) * 1024
    cpu = sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", text))
    switches = {kind: int(re.search(kind.capitalize() + r" context switches: (\d+)", text).group(1))
                for kind in ("voluntary", "involuntary")}
    return wall, peak, cpu, status, switches


def last_json(path, kind="done"):
    """The last JSON object of type `kind` that the command printed, or None."""
    found = None
    for line in open(path, errors="replace"):
        line = line.strip()
        if line.startswith("{"):
            try:
                item = json.loads(line)
            except ValueError:
                continue
            if item.get("type") == kind:
                found = item
    return found


def tail(path, lines=5):
    with open(path, errors="replace") as handle:
        return "".join(handle.readlines()[-lines:]).strip()


class Bench:
    def __init__(self, args):
        self.args = args
        self.waymark = args.waymark
        self.work = args.work
        os.makedirs(self.work, exist_ok=True)
        self.env = dict(os.environ, XDG_DATA_HOME=os.path.join(self.work, "xdg-data"),
                        XDG_RUNTIME_DIR=os.path.join(self.work, "xdg-run"), XDG_CONFIG_HOME=os.path.join(self.work, "xdg-config"))
        for key in ("XDG_DATA_HOME", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME"):
            os.makedirs(self.env[key], mode=0o700, exist_ok=True)
        help_text = "" if args.baselines_only else \
            subprocess.run([self.waymark, "import", "--help"], capture_output=True, text=True).stdout
        if not args.baselines_only and "--device" not in help_text:
            sys.exit(f"{self.waymark} has no `import` command with --device yet:\n{help_text[:400]}")
        self.store_flag = "--store" if "--store" in help_text else "--db"
        self.can_reread = "--reread" in help_text
        self.results = []

    def emit(self, result):
        self.results.append(result)
        print(json.dumps(result), flush=True)

    def fresh_store(self, name):
        folder = os.path.join(self.work, name)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        store = os.path.join(folder, "waymark.sqlite")
        run = lambda *command: subprocess.run([self.waymark, *command], env=self.env, capture_output=True, text=True)
        added = run("regions", "import", self.args.regions, "--db", store)
        if added.returncode != 0:
            sys.exit(f"regions import failed: {added.stderr.strip()}")
        run("devices", "add", self.args.device, "--db", store)  # an import may require the device; a second add fails harmlessly
        return store

    def store_bytes(self, store):
        return sum(os.path.getsize(store + suffix) for suffix in ("", "-wal") if os.path.exists(store + suffix))

    def imports(self, name, path, records, stores, repeat, extra=()):
        """`waymark import path` into each of `stores` in turn (repeat runs); the median's figures."""
        runs = []
        for index in range(repeat):
            store = stores(index)
            out = os.path.join(self.work, f"{name}-{index}.out")
            command = [self.waymark, "import", path, "--device", self.args.device, self.store_flag, store, "--json", *extra]
            wall, peak, cpu, status, switches = timed(command, self.env, out)
            done = last_json(out)
            if status != 0 or done is None:
                sys.exit(f"{name}: `{' '.join(command)}` exited with {status}:\n{tail(out + '.err')}\n{tail(out)}")
            runs.append({"seconds": wall, "peak_rss_bytes": peak, "cpu_seconds": cpu, "added": done.get("added"),
                         "present": done.get("present"), "events": done.get("events"), "store_bytes": self.store_bytes(store),
                         "switches": switches, "done": done})
            print(f"# {name} run {index + 1}/{repeat}: {wall:.1f} s, CPU {cpu:.1f} s, {peak / 1e6:.0f} MB peak, "
                  f"added {done.get('added')}, present {done.get('present')}", file=sys.stderr, flush=True)
        seconds = statistics.median(r["seconds"] for r in runs)
        size = os.path.getsize(path)
        result = {"benchmark": "import", "name": name, "file": path, "bytes": size, "records": records,
                  "seconds": round(seconds, 2), "runs": len(runs), "seconds_each": [round(r["seconds"], 2) for r in runs],
                  "mb_per_second": round(size / 1e6 / seconds, 1), "records_per_second": round(records / seconds),
                  "peak_rss_bytes": max(r["peak_rss_bytes"] for r in runs),
                  "cpu_seconds": round(statistics.median(r["cpu_seconds"] for r in runs), 2),
                  "added": [r["added"] for r in runs], "present": [r["present"] for r in runs],
                  "events": [r["events"] for r in runs],
                  "store_bytes": runs[-1]["store_bytes"], "switches": runs[-1]["switches"], "done": runs[-1]["done"]}
        self.emit(result)
        return result

    def baseline(self, name, command, path, predicted_peak, fallback):
        """A baseline on `path`, or on `fallback` when its predicted peak memory would not fit."""
        budget = available_memory() // 2
        note = None
        if predicted_peak > budget:
            if not fallback or not os.path.exists(fallback):
                result = {"benchmark": "baseline", "name": name, "skipped": f"would need about {predicted_peak / 1e9:.1f} GB, "
                          f"half the available memory is {budget / 1e9:.1f} GB"}
                self.emit(result)
                return result
            note = f"on {os.path.basename(os.path.dirname(fallback))}/{os.path.basename(fallback)} " \
                   f"({os.path.getsize(fallback) / 1e6:.0f} MB): the full file would need about {predicted_peak / 1e9:.1f} GB"
            path = fallback
        output = subprocess.run([*command, path], check=True, capture_output=True, text=True).stdout
        result = json.loads(output.strip().splitlines()[-1])
        result.update({"benchmark": "baseline", "name": name, "note": note})
        self.emit(result)
        return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("waymark")
    parser.add_argument("--data", required=True, help="folder with Records.json (+ .manifest.json), Records.gpx, regions.geojson")
    parser.add_argument("--baseline-data", help="a smaller generated folder for baselines that would not fit in memory")
    parser.add_argument("--work", required=True, help="scratch folder for the stores")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--venv-python", help="python with ijson (Benchmarks/venv.sh)")
    parser.add_argument("--device", default="phone")
    parser.add_argument("--skip-gpx", action="store_true")
    parser.add_argument("--baselines-only", action="store_true", help="no waymark runs (e.g. before `waymark import` exists)")
    args = parser.parse_args()
    records_path = os.path.join(args.data, "Records.json")
    gpx_path = os.path.join(args.data, "Records.gpx")
    args.regions = os.path.join(args.data, "regions.geojson")
    manifest = json.load(open(records_path + ".manifest.json"))
    small = (lambda name: os.path.join(args.baseline_data, name)) if args.baseline_data else (lambda name: None)
    bench = Bench(args)
    records = manifest["records"]

    first = again = reread = gpx = None
    if not args.baselines_only:
        first = bench.imports("first-import", records_path, records, lambda i: bench.fresh_store(f"store-{i}"), args.repeat)
        kept = os.path.join(bench.work, f"store-{args.repeat - 1}", "waymark.sqlite")
        again = bench.imports("re-import", records_path, records, lambda i: kept, args.repeat)
        if bench.can_reread:
            reread = bench.imports("re-import-reread", records_path, records, lambda i: kept, args.repeat, ["--reread"])
        if not args.skip_gpx:
            gpx = bench.imports("gpx-import", gpx_path, records, lambda i: bench.fresh_store(f"gpx-store-{i}"), args.repeat)

    size = manifest["bytes"]
    repeat = "1" if size > 300e6 else str(args.repeat)
    system = "/usr/bin/python3"
    json_load = bench.baseline("json.load", [system, os.path.join(here, "takeout_baseline.py"), "--parser", "json", "--repeat", repeat],
                               records_path, size * JSON_LOAD_BYTES_PER_BYTE, small("Records.json"))
    ijson = bench.baseline("ijson", [args.venv_python or system, os.path.join(here, "takeout_baseline.py"), "--parser", "ijson",
                                     "--repeat", repeat], records_path, 0, None)
    gpxpy = None if args.skip_gpx else \
        bench.baseline("gpxpy", [system, os.path.join(here, "gpxpy_baseline.py"), "--repeat", "1"], gpx_path,
                       manifest["gpx_bytes"] * GPXPY_BYTES_PER_BYTE, small("Records.gpx"))
    report(manifest, first, again, reread, gpx, json_load, ijson, gpxpy)


def num(n):
    return f"{n:,}" if isinstance(n, int) else str(n)


def mb(n):
    return f"{n / 1e6:,.0f} MB" if n >= 10e6 else f"{n / 1e6:,.1f} MB"


def report(manifest, first, again, reread, gpx, json_load, ijson, gpxpy):
    rows = [(label, r) for label, r in (("first import, Records.json, regions on", first),
                                        ("re-import, same file, same store", again),
                                        ("re-import with --reread (every fix read again)", reread),
                                        ("import of the same points as GPX, regions on", gpx)) if r]
    print("\n| run | file | records | seconds (median) | CPU s | MB/s | records/s | peak RSS | added | already present |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, r in rows:
        print(f"| {label} | {mb(r['bytes'])} | {r['records']:,} | {r['seconds']:.1f} (of {r['runs']}) | {r['cpu_seconds']:.1f} | {r['mb_per_second']} | "
              f"{r['records_per_second']:,} | {mb(r['peak_rss_bytes'])} | {num(r['added'][-1])} | {num(r['present'][-1])} |")
    for label, r in (("Python json.load", json_load), ("ijson", ijson), ("gpxpy (GPX)", gpxpy)):
        if r is None:
            continue
        if "skipped" in r:
            print(f"| {label} | | | skipped: {r['skipped']} | | | | | | |")
            continue
        count = r.get("records", r.get("points"))
        print(f"| {r.get('parser', label)}{' *' if r.get('note') else ''} | {mb(r['bytes'])} | {count:,} | {r['seconds']:.1f} | | "
              f"{r['mb_per_second']} | {round(count / r['seconds']):,} | {mb(r['peak_rss_bytes'])} | | |")
    notes = [f"* {r.get('parser', r['name'])} {r['note']}" for r in (json_load, ijson, gpxpy) if r and r.get("note")]
    for note in notes:
        print(note)

    if first is None:
        for r in (json_load, ijson, gpxpy):
            if r and "skipped" not in r:
                print(f"{r.get('parser', r['name'])}: {r['mb_per_second']} MB/s, peak RSS {mb(r['peak_rss_bytes'])}"
                      f"{' (smaller file)' if r.get('note') else ''}")
        return
    span = f"{manifest['first'][:10]} to {manifest['last'][:10]}"
    verdict = lambda ok: "met" if ok else "NOT met"
    print(f"\nRecords.json {mb(manifest['bytes'])} ({manifest['records']:,} records, {span}, "
          f"{manifest['timestampMs_records']:,} with timestampMs, {manifest['activity_records']:,} with activity; "
          f"{manifest['region_count']} regions; make_takeout.py --seed {manifest['seed']}): "
          f"first import {first['seconds']:.1f} s ({first['mb_per_second']} MB/s, {first['records_per_second']:,} records/s; "
          f"CPU {first['cpu_seconds']:.1f} s, {first['switches']['involuntary']:,} involuntary context switches), "
          f"peak RSS {mb(first['peak_rss_bytes'])}, added {num(first['added'][-1])}, {num(first['events'][-1])} events; "
          f"targets ≤ 90 s for 1.5 GB and ≤ 256 MB: time {verdict(first['seconds'] * 1.5e9 / manifest['bytes'] <= 90)}"
          f"{'' if manifest['bytes'] >= 1.4e9 else ' (scaled to 1.5 GB)'}, memory {verdict(first['peak_rss_bytes'] <= 256 * 2**20)}")
    share = again["seconds"] / first["seconds"]
    print(f"Re-import of the same file: added {num(again['added'][-1])}, already present {num(again['present'][-1])}, "
          f"{again['seconds']:.1f} s = {share:.0%} of the first import (target: 0 added, ≤ 20 %: "
          f"{verdict(again['added'][-1] == 0 and share <= 0.2)}), peak RSS {mb(again['peak_rss_bytes'])}")
    if reread:
        share = reread["seconds"] / first["seconds"]
        print(f"Re-import with --reread (every record parsed and looked up): added {reread['added'][-1]}, already present "
              f"{num(reread['present'][-1])}, {reread['seconds']:.1f} s = {share:.0%} of the first import "
              f"(≤ 20 %: {verdict(reread['added'][-1] == 0 and share <= 0.2)}), peak RSS {mb(reread['peak_rss_bytes'])}")
    if gpx:
        line = f"GPX of the same points, {mb(gpx['bytes'])}: {gpx['seconds']:.1f} s ({gpx['mb_per_second']} MB/s, " \
               f"{gpx['records_per_second']:,} points/s), peak RSS {mb(gpx['peak_rss_bytes'])}, added {num(gpx['added'][-1])}"
        if gpxpy and "skipped" not in gpxpy:
            line += f"; gpxpy {gpxpy['mb_per_second']} MB/s{' (smaller file)' if gpxpy.get('note') else ''}, " \
                    f"peak RSS {mb(gpxpy['peak_rss_bytes'])}: the import runs at {gpx['mb_per_second'] / gpxpy['mb_per_second']:.1f}× its rate"
        print(line)
    for r in (json_load, ijson):
        if r and "skipped" not in r:
            print(f"{r['parser']} of Records.json{' (smaller file)' if r.get('note') else ''}: {r['mb_per_second']} MB/s, "
                  f"peak RSS {mb(r['peak_rss_bytes'])}; the first import (reading, deduplication, regions, store) "
                  f"runs at {first['mb_per_second'] / r['mb_per_second']:.1f}× its rate")


if __name__ == "__main__":
    main()
