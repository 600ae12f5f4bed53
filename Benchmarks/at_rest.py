"""The daemon at rest: gpsd running with no receiver, no handlers, no clients.

Usage: /usr/bin/python3 Benchmarks/at_rest.py WAYMARK [--seconds 60] [--floor Benchmarks/floor/.build/release/floor]
Starts `gpsd -N` on a private port with no device, then `WAYMARK serve --gpsd 127.0.0.1:PORT` on a
fresh database in a fresh HOME, lets it settle for 5 s, and over --seconds reads from /proc: the
CPU time of the whole process (all threads), its wake-ups (voluntary context switches summed
over its threads: each is a thread going to sleep after it was woken), and its resident set.
Prints one JSON object: cpu_percent, wakeups_per_second, rss_mb, threads.

With --floor (build it with `swift build -c release --package-path Benchmarks/floor`), the same
run also measures the floor under that resident set: the smallest Swift process with Foundation
(floor_foundation_mb), with one SQLite connection on the daemon's database (floor_sqlite_mb),
and with SpatiaLite loaded into it as every store connection has (floor_spatialite_mb).
"""
import argparse, json, os, subprocess, tempfile, time

from benchkit import free_port

parser = argparse.ArgumentParser()
parser.add_argument("waymark")
parser.add_argument("--seconds", type=float, default=60)
parser.add_argument("--floor", help="Benchmarks/floor's executable, for the floor figures")
args = parser.parse_args()


def sample(pid):
    """{thread id: (name, cpu seconds, voluntary context switches)} of pid's threads."""
    ticks = os.sysconf("SC_CLK_TCK")
    threads = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            stat = open(f"/proc/{pid}/task/{task}/stat").read()
            fields = stat[stat.rindex(")") + 2:].split()
            cpu = (int(fields[11]) + int(fields[12])) / ticks
            name = open(f"/proc/{pid}/task/{task}/comm").read().strip()
            switches = next(int(line.split()[1]) for line in open(f"/proc/{pid}/task/{task}/status")
                            if line.startswith("voluntary_ctxt_switches:"))
            threads[task] = (name, cpu, switches)
        except (FileNotFoundError, ProcessLookupError):
            continue
    return threads


def window(before, after):
    """CPU seconds, wake-ups and wake-ups by thread name between two samples. A thread that
    started in between counts from zero; one that ended in between is lost (the runtime's
    worker threads come and go), so the figures are a floor, never negative."""
    cpu, wakeups, named = 0.0, 0, {}
    for task, (name, task_cpu, switches) in after.items():
        _, cpu0, switches0 = before.get(task, (name, 0.0, 0))
        cpu += task_cpu - cpu0
        wakeups += switches - switches0
        named[name] = named.get(name, 0) + switches - switches0
    return cpu, wakeups, named


def by_thread(named, elapsed):
    """Wake-ups per second by thread name, busiest first."""
    return {name: round(count / elapsed, 2) for name, count in sorted(named.items(), key=lambda item: -item[1]) if count > 0}


def rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None


work = tempfile.mkdtemp(prefix="waymark-rest-")
home = os.path.join(work, "home")
os.makedirs(home)
port = free_port()
# With no device gpsd needs a control socket, or it exits at once ("can't run with neither control
# socket nor devices") and the daemon would be measured retrying a gpsd that is not there.
gpsd = subprocess.Popen(["gpsd", "-N", "-F", os.path.join(work, "gpsd.sock"), "-S", str(port)],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(0.5)
if gpsd.poll() is not None:
    raise SystemExit(f"gpsd exited at start (status {gpsd.returncode})")
environment = dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, ".local/share"),
                   XDG_RUNTIME_DIR=os.path.join(work, "run"))
os.makedirs(environment["XDG_RUNTIME_DIR"], mode=0o700)
daemon = subprocess.Popen([args.waymark, "serve", "--gpsd", f"127.0.0.1:{port}"], env=environment,
                          stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "daemon.log"), "w"))
try:
    time.sleep(5)
    before = sample(daemon.pid)
    start = time.monotonic()
    time.sleep(args.seconds)
    after = sample(daemon.pid)
    elapsed = time.monotonic() - start
    cpu, wakeups, named = window(before, after)
    floor = {}
    if args.floor:
        database = os.path.join(environment["XDG_DATA_HOME"], "waymark", "waymark.sqlite")
        for mode in ("foundation", "sqlite", "spatialite"):
            output = subprocess.run([args.floor, mode] + ([] if mode == "foundation" else [database]),
                                    check=True, capture_output=True, text=True).stdout
            floor[f"floor_{mode}_mb"] = round(int(output) / 1024, 1)
    print(json.dumps({"benchmark": "at_rest", "seconds": round(elapsed, 1),
                      "cpu_percent": round(100 * cpu / elapsed, 3),
                      "wakeups_per_second": round(wakeups / elapsed, 2),
                      "rss_mb": round(rss_mb(daemon.pid), 1), "threads": len(after),
                      "wakeups_per_second_by_thread": by_thread(named, elapsed),
                      "running": daemon.poll() is None, "gpsd_running": gpsd.poll() is None, **floor}))
finally:
    daemon.terminate(); daemon.wait(10)
    gpsd.terminate(); gpsd.wait(10)
