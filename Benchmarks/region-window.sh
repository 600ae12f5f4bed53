#!/bin/bash
# The region window's reply time (BENCHMARKS.md, "Phones: modes, windows, energy"): a daemon
# with 10,000 circle regions, an OwnTracks phone posting 60 reports that each get a new window
# and 60 that keep it; curl's time per request. BIN=path/to/waymark (default: the release build).
set -e
BIN=${BIN:-.build/release/waymark}
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
python3 - "$D/grid.geojson" <<'PY'
import sys, json
f=[]
f.append({"type":"Feature","id":"plaza","geometry":{"type":"Point","coordinates":[8.0,47.0]},"properties":{"radius":100}})
for r in range(100):
    for c in range(100):
        if len(f) >= 10000: break
        f.append({"type":"Feature","id":f"g{r}-{c}","geometry":{"type":"Point","coordinates":[8.005+c*0.01,47.005+r*0.01]},"properties":{"radius":150}})
json.dump({"type":"FeatureCollection","features":f}, open(sys.argv[1],"w"))
PY
$BIN regions import "$D/grid.geojson" --db "$D/w.sqlite" >/dev/null
SECRET=$($BIN devices add phone --user alice --db "$D/w.sqlite" | grep -oE '[A-Za-z0-9_-]{20,}' | head -1)
PORT=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
$BIN serve --gpsd 127.0.0.1:9 --db "$D/w.sqlite" --socket "$D/api.sock" --listen 127.0.0.1:$PORT 2>"$D/serve.log" &
PID=$!
for i in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 0.2; done
T0=$(( $(date +%s) - 7200 ))
post() { curl -s -o "$D/reply" -w '%{time_total} %{size_download}\n' -u "alice:$SECRET" -H 'Content-Type: application/json' -H 'X-Limit-U: alice' -H 'X-Limit-D: phone' --data-binary "{\"_type\":\"location\",\"lat\":$1,\"lon\":$2,\"tst\":$3,\"acc\":10,\"m\":1,\"tid\":\"ph\"}" "http://127.0.0.1:$PORT/v1/owntracks"; }
: > "$D/new"; : > "$D/same"
for s in $(seq 0 59); do
  lat=$(python3 -c "print(47.05+$s*0.015)"); lon=$(python3 -c "print(8.05+$s*0.015)")
  post $lat $lon $((T0 + s*120)) >> "$D/new"
  grep -q clearWaypoints "$D/reply" || echo "no new window at step $s" >&2
  post $lat $lon $((T0 + s*120 + 60)) >> "$D/same"
  grep -q clearWaypoints "$D/reply" && echo "unexpected window at step $s" >&2
done
kill $PID; wait $PID 2>/dev/null || true
python3 - "$D" <<'PY'
import sys, statistics
d=sys.argv[1]
for name in ("new","same"):
    rows=[l.split() for l in open(f"{d}/{name}") if l.strip()]
    t=sorted(float(r[0])*1000 for r in rows); b=[int(r[1]) for r in rows]
    print(f"{name}: n={len(t)} median {statistics.median(t):.1f} ms, p90 {t[int(len(t)*0.9)]:.1f} ms, max {t[-1]:.1f} ms, reply {min(b)}-{max(b)} bytes")
PY
