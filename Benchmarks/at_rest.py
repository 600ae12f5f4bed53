"""The daemon at rest: gpsd running with no receiver, no handlers, no clients.

Usage: /usr/bin/python3 Benchmarks/at_rest.py WAYMARK [--seconds 60]
Starts `gpsd -N` on a private port with no device, then `WAYMARK serve --gpsd 127.0.0.1:PORT` on a
fresh database in a fresh HOME, lets it settle for 5 s, and over --seconds reads from /proc: the
CPU time of the whole process (all threads), its wake-ups (voluntary context switches summed
over its threads: each is a thread going to sleep after it was woken), and its resident set.
Prints one JSON object: cpu_percent, wakeups_per_second, rss_mb, threads.
"""
import argparse, json, os, socket, subprocess, tempfile, time

parser = argparse.ArgumentParser()
parser.add_argument("waymark")
parser.add_argument("--seconds", type=float, default=60)
args = parser.parse_args()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sample(pid):
    """(cpu seconds, voluntary context switches, threads, switches by thread name) of pid."""
    ticks = os.sysconf("SC_CLK_TCK")
    cpu, switches, threads, named = 0.0, 0, 0, {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            stat = open(f"/proc/{pid}/task/{task}/stat").read()
            fields = stat[stat.rindex(")") + 2:].split()
            cpu += (int(fields[11]) + int(fields[12])) / ticks
            name = open(f"/proc/{pid}/task/{task}/comm").read().strip() + "#" + task
            for line in open(f"/proc/{pid}/task/{task}/status"):
                if line.startswith("voluntary_ctxt_switches:"):
                    switches += int(line.split()[1])
                    named[name] = int(line.split()[1])
            threads += 1
        except (FileNotFoundError, ProcessLookupError):
            continue
    return cpu, switches, threads, named


def rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None


work = tempfile.mkdtemp(prefix="waymark-rest-")
home = os.path.join(work, "home")
os.makedirs(home)
port = free_port()
gpsd = subprocess.Popen(["gpsd", "-N", "-S", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(0.5)
environment = dict(os.environ, HOME=home, XDG_DATA_HOME=os.path.join(home, ".local/share"),
                   XDG_RUNTIME_DIR=os.path.join(work, "run"))
os.makedirs(environment["XDG_RUNTIME_DIR"], mode=0o700)
daemon = subprocess.Popen([args.waymark, "serve", "--gpsd", f"127.0.0.1:{port}"], env=environment,
                          stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "daemon.log"), "w"))
try:
    time.sleep(5)
    cpu0, switches0, _, named0 = sample(daemon.pid)
    start = time.monotonic()
    time.sleep(args.seconds)
    cpu1, switches1, threads, named1 = sample(daemon.pid)
    elapsed = time.monotonic() - start
    print(json.dumps({"benchmark": "at_rest", "seconds": round(elapsed, 1),
                      "cpu_percent": round(100 * (cpu1 - cpu0) / elapsed, 3),
                      "wakeups_per_second": round((switches1 - switches0) / elapsed, 2),
                      "rss_mb": round(rss_mb(daemon.pid), 1), "threads": threads,
                      "wakeups_per_second_by_thread": {
                          name.split("#")[0]: round((count - named0.get(name, 0)) / elapsed, 2)
                          for name, count in sorted(named1.items(), key=lambda item: named0.get(item[0], 0) - item[1])
                          if count > named0.get(name, 0)},
                      "running": daemon.poll() is None}))
finally:
    daemon.terminate(); daemon.wait(10)
    gpsd.terminate(); gpsd.wait(10)
