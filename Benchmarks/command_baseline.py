#!/usr/bin/env python3
"""Runs a command --repeat times and prints one JSON object: the median wall-clock seconds and
the child's peak resident memory (from wait4's rusage), with points/s when --points is given.
Usage: command_baseline.py --name NAME [--repeat N] [--points N] -- COMMAND ARGS..."""
import argparse, json, os, subprocess, time

parser = argparse.ArgumentParser()
parser.add_argument("--name", required=True)
parser.add_argument("--repeat", type=int, default=5)
parser.add_argument("--points", type=int)
parser.add_argument("command", nargs=argparse.REMAINDER)
args = parser.parse_args()
command = args.command[1:] if args.command[:1] == ["--"] else args.command

timings, peak = [], 0
for _ in range(max(1, args.repeat)):
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    timings.append(time.perf_counter() - start)
    if status != 0:
        raise SystemExit(f"{args.name}: {' '.join(command)} exited with {status}")
    peak = max(peak, usage.ru_maxrss * 1024)
median = sorted(timings)[len(timings) // 2]
result = {"benchmark": "baseline", "name": args.name, "seconds": median, "runs": len(timings), "peak_rss_bytes": peak}
if args.points:
    result["points_per_second"] = round(args.points / median)
print(json.dumps(result))
