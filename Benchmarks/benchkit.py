"""Helpers the benchmark scripts share (imported from Benchmarks/, the scripts' own folder)."""
import hashlib, secrets, socket, sqlite3, subprocess, time


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values, q):
    """The q-quantile (0..1) of values, by rounded rank; None when there are none."""
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else None


def stop(process, grace=20):
    """SIGTERM, then SIGKILL if it has not exited within `grace` seconds."""
    process.terminate()
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        process.kill()


def add_devices(db, count):
    """Devices d0 … d{count-1} written straight into the store, each its own user, with a new
    secret stored as its SHA-256 the way `waymark devices add` stores it (adding thousands through
    the CLI would take minutes of process start-ups); the secrets, in order."""
    tokens = [secrets.token_urlsafe(32) for _ in range(count)]
    connection = sqlite3.connect(db)
    now = time.time_ns()
    connection.executemany(
        "INSERT INTO devices (name, user, secret_hash, secret_hint, created_ns) VALUES (?, ?, ?, ?, ?)",
        [(f"d{i}", f"d{i}", hashlib.sha256(token.encode()).digest(), token[:4], now) for i, token in enumerate(tokens)])
    connection.commit()
    connection.close()
    return tokens
