"""Helpers the benchmark scripts share (imported from Benchmarks/, the scripts' own folder)."""
import socket, subprocess


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
