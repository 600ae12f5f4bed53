"""Baselines for `waymark import` of a Records.json: the same file read by Python's `json.load`
(the whole document in memory, as most Takeout scripts do) or by ijson (streaming, its C backend
yajl2_c when installed: `Benchmarks/venv.sh` puts ijson in Benchmarks/.venv).

Both read every record's coordinates and time as an importer must, and count the records.
Prints one JSON object: the median of --repeat runs, MB/s (10⁶ bytes), records/s, and the
process's peak resident memory.

    python3 Benchmarks/takeout_baseline.py Records.json --parser json [--repeat 3]
    "$(Benchmarks/venv.sh)" Benchmarks/takeout_baseline.py Records.json --parser ijson
"""
import argparse
import json
import os
import resource
import statistics
import time


def read_json(path):
    with open(path, "rb") as handle:
        locations = json.load(handle)["locations"]
    return sum(1 for r in locations if "latitudeE7" in r and "longitudeE7" in r and ("timestamp" in r or "timestampMs" in r))


def read_ijson(path, backend):
    count = 0
    with open(path, "rb") as handle:
        for r in backend.items(handle, "locations.item", use_float=True):
            if "latitudeE7" in r and "longitudeE7" in r and ("timestamp" in r or "timestampMs" in r):
                count += 1
    return count


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--parser", choices=("json", "ijson"), required=True)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.parser == "ijson":
        import ijson
        try:
            backend = ijson.get_backend("yajl2_c")
        except ImportError:
            backend = ijson
        name = f"ijson {ijson.__version__} ({backend.backend_name if hasattr(backend, 'backend_name') else backend.backend})"
        read = lambda: read_ijson(args.file, backend)
    else:
        name = "json.load"
        read = lambda: read_json(args.file)
    size = os.path.getsize(args.file)
    timings, records = [], 0
    for _ in range(max(1, args.repeat)):
        start = time.perf_counter()
        records = read()
        timings.append(time.perf_counter() - start)
    median = statistics.median(timings)
    print(json.dumps({
        "benchmark": "takeout-baseline", "parser": name, "file": args.file, "bytes": size, "records": records,
        "seconds": round(median, 3), "mb_per_second": round(size / 1e6 / median, 1),
        "records_per_second": round(records / median), "runs": len(timings),
        "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    }))


if __name__ == "__main__":
    main()
