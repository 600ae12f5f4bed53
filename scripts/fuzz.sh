#!/usr/bin/env bash
# Fuzzes Waymark's parsers of untrusted bytes with libFuzzer (docs/reliability.md, "Fuzzing").
#
#   scripts/fuzz.sh TARGET SECONDS     build Fuzz/ and run one target for SECONDS
#   scripts/fuzz.sh all SECONDS        run every target in turn, SECONDS each
#   scripts/fuzz.sh smoke [RUNS]       CI's run: a debug build, every target for RUNS inputs
#                                      (default 5000) with a fixed seed, so it repeats exactly
#   scripts/fuzz.sh list               the targets, one a line
#   scripts/fuzz.sh build              only build (every target)
#
# The fuzz package (Fuzz/Package.swift) is built in release mode (debug for `smoke`, or with
# WAYMARK_FUZZ_BUILD=debug: a third of the build time, a tenth of the speed) with libFuzzer and
# AddressSanitizer in its own scratch folder, Fuzz/.build, never the main package's .build.
# Each run starts from a temporary corpus seeded with the target's seeds in Fuzz/Seeds/TARGET,
# the repository's own Tracks/, Regions/, Beacons/, Profiles/ and packaging/ files, and the
# test data in ../shared/data when it is there (WAYMARK_SHARED_DATA overrides that folder).
# Nothing from ../shared/data is ever written into the repository: the corpus is deleted after
# the run (set WAYMARK_FUZZ_KEEP=1 to keep it and the log; their folder is printed).
#
# WAYMARK_FUZZ_ARGS adds libFuzzer options to every run, e.g. "-fork=1 -ignore_timeouts=1" to
# keep going past a known hang, or "-seed=1" to repeat a run.
#
# Per target one line of figures is printed. The exit status is non-zero when a target found
# a crash, a leak, a timeout (an input running longer than 10 s) or ran out of memory; the
# input that did it is left in Fuzz/Crashes/TARGET/ and the sanitizer's report is printed.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FUZZ="$ROOT/Fuzz"
SCRATCH="$FUZZ/.build"
DATA="${WAYMARK_SHARED_DATA:-$ROOT/../shared/data}"

TARGETS=(
    gpx gpsd json geojson beacon-replay hci owntracks osmand device-credentials
    handler-request handler-registration handler-client config power-profile api-output api-device
    track-log extreme-values import
)

# The longest input each target is given (libFuzzer's -max_len). HCI packets are read into a
# 260-byte buffer; gpsd lines are at most 16 KiB in the product; the rest are capped where a
# bigger input adds nothing but time.
max_len() {
    case "$1" in
        hci) echo 260 ;;
        device-credentials) echo 1024 ;;
        gpx | geojson | json | gpsd | track-log | import) echo 16384 ;;
        *) echo 8192 ;;
    esac
}

die() { echo "fuzz.sh: $*" >&2; exit 2; }

usage() {
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}

is_target() {
    local t
    for t in "${TARGETS[@]}"; do [[ "$t" == "$1" ]] && return 0; done
    return 1
}

CONFIGURATION=${WAYMARK_FUZZ_BUILD:-release}
[[ "${1:-}" == smoke ]] && CONFIGURATION=debug
[[ "$CONFIGURATION" == release || "$CONFIGURATION" == debug ]] || die "WAYMARK_FUZZ_BUILD is release or debug, not '$CONFIGURATION'"

BUILD_FLAGS=(
    -c "$CONFIGURATION" --package-path "$FUZZ" --scratch-path "$SCRATCH"
    --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
    # @_cdecl LLVMFuzzerTestOneInput files have no top-level code; libFuzzer brings main.
    -Xswiftc -parse-as-library
    # Some targets reach internal API with @testable import (GpsdReport, LocationEvent(message:), …).
    -Xswiftc -enable-testing
)

build() {
    local product=("$@")
    echo "fuzz.sh: building the fuzz package ($CONFIGURATION, libFuzzer + AddressSanitizer) in Fuzz/.build" >&2
    local started=$SECONDS
    # The linker warns at length about ASan's symbols in debug builds: the log is kept aside
    # and its end shown only when the build fails.
    local log
    log=$(mktemp)
    if ! swift build "${BUILD_FLAGS[@]}" "${product[@]}" >"$log" 2>&1; then
        grep -v "ld.gold: warning" "$log" | tail -40 >&2
        rm -f "$log"
        die "the build failed"
    fi
    rm -f "$log"
    echo "fuzz.sh: built in $((SECONDS - started)) s" >&2
    BIN=$(swift build "${BUILD_FLAGS[@]}" --show-bin-path 2>/dev/null) || die "cannot find the build's bin folder"
}

# --- seeds ---------------------------------------------------------------------------------

# copy DEST FILE...: each file into the corpus, cut to the target's -max_len.
copy() {
    local dest=$1 file name
    shift
    for file in "$@"; do
        [[ -f "$file" ]] || continue
        name="$(basename "$(dirname "$file")")-$(basename "$file")"
        head -c "$LIMIT" "$file" >"$dest/$name"
    done
}

have_data() { [[ -d "$DATA/$1" ]]; }

# geojson_features DEST FILE...: each file's first features, each as a FeatureCollection of
# its own (a whole file cut to 16 KiB is no longer JSON).
geojson_features() {
    local dest=$1
    shift
    command -v python3 >/dev/null || return 0
    python3 - "$dest" "$LIMIT" "$@" <<'PY'
import json, os, sys
dest, limit, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
for path in files:
    try:
        with open(path, "rb") as f:
            document = json.load(f)
    except (OSError, ValueError):
        continue
    features = document.get("features", [document]) if isinstance(document, dict) else []
    stem = os.path.basename(path).split(".")[0]
    written = 0
    for index, feature in enumerate(features):
        text = json.dumps({"type": "FeatureCollection", "features": [feature]}, separators=(",", ":"))
        if len(text) > limit:
            continue
        with open(os.path.join(dest, f"{stem}-{index}.geojson"), "w") as out:
            out.write(text)
        written += 1
        if written == 12:
            break
PY
}

# hci_packets DEST FILE...: the `hci` packets of beacon replay files, as binary seeds.
hci_packets() {
    local dest=$1
    shift
    command -v python3 >/dev/null || return 0
    python3 - "$dest" "$@" <<'PY'
import json, os, sys
dest, files = sys.argv[1], sys.argv[2:]
for path in files:
    with open(path) as f:
        for number, line in enumerate(f, 1):
            try:
                packet = bytes.fromhex(json.loads(line)["hci"].replace(" ", ""))
            except (ValueError, KeyError, TypeError):
                continue
            with open(os.path.join(dest, f"{os.path.basename(path)}-{number}.bin"), "wb") as out:
                out.write(packet)
PY
}

# log_chunks DEST: gpsd's regression logs (NMEA 0183) and their .chk files (gpsd JSON with
# the NMEA interleaved), the first 120 lines of each in pieces of 30 lines.
log_chunks() {
    local dest=$1 file
    have_data nmea/gpsd-3.22 || return 0
    for file in "$DATA"/nmea/gpsd-3.22/*.log "$DATA"/nmea/gpsd-3.22/*.chk; do
        head -n 120 "$file" | split -l 30 -a 1 - "$dest/$(basename "$file")-"
    done
}

# gpsd_chunks DEST: gpsd's own JSON output for its regression logs (the .chk files): the
# first 160 lines of each, in pieces of 20 lines.
gpsd_chunks() {
    local dest=$1 file
    have_data nmea/gpsd-3.22 || return 0
    for file in "$DATA"/nmea/gpsd-3.22/*.chk; do
        head -n 160 "$file" | split -l 20 -a 1 - "$dest/$(basename "$file" .log.chk)-"
    done
}

seed() {
    local target=$1 dest=$2
    copy "$dest" "$FUZZ"/Seeds/"$target"/*
    case "$target" in
        gpx)
            copy "$dest" "$ROOT"/Tracks/*.gpx
            have_data gpx && copy "$dest" "$DATA"/gpx/*.gpx
            ;;
        json)
            copy "$dest" "$FUZZ"/Seeds/geojson/* "$FUZZ"/Seeds/owntracks/* "$FUZZ"/Seeds/api-output/*
            geojson_features "$dest" "$ROOT"/Regions/*.geojson "$ROOT"/Beacons/*.geojson
            have_data geojson && geojson_features "$dest" "$DATA"/geojson/manhattan.geojson
            ;;
        geojson)
            copy "$dest" "$ROOT"/Regions/*.geojson "$ROOT"/Beacons/*.geojson
            have_data geojson && geojson_features "$dest" "$DATA"/geojson/*.json "$DATA"/geojson/*.geojson
            ;;
        gpsd) gpsd_chunks "$dest" ;;
        track-log) log_chunks "$dest" ;;
        beacon-replay) copy "$dest" "$ROOT"/Beacons/*.jsonl ;;
        hci) hci_packets "$dest" "$ROOT"/Beacons/*.jsonl "$FUZZ"/Seeds/beacon-replay/* ;;
        config) copy "$dest" "$ROOT"/packaging/*.yaml ;;
        power-profile) copy "$dest" "$ROOT"/Profiles/power/*.yaml ;;
    esac
}

# --- running -------------------------------------------------------------------------------

FAILED=()
SUMMARY=()

# run TARGET SECONDS: fuzz for SECONDS, or, when RUNS is set, for RUNS inputs with seed 1.
run() {
    local target=$1 seconds=$2
    local corpus="$WORK/corpus-$target" log="$WORK/$target.log" crashes="$FUZZ/Crashes/$target"
    LIMIT=$(max_len "$target")
    mkdir -p "$corpus" "$crashes"
    seed "$target" "$corpus"
    local seeds before after
    seeds=$(find "$corpus" -type f | wc -l)
    before=$(find "$crashes" -type f | wc -l)
    touch "$WORK/started-$target"
    local options=(-timeout=10 -max_len="$LIMIT" -print_final_stats=1 -artifact_prefix="$crashes/")
    if [[ -n "${RUNS:-}" ]]; then options+=(-runs="$RUNS" -seed=1); else options+=(-max_total_time="$seconds"); fi
    [[ -f "$FUZZ/Dictionaries/$target.dict" ]] && options+=(-dict="$FUZZ/Dictionaries/$target.dict")
    # shellcheck disable=SC2206  # split on purpose: several options in one variable
    [[ -n "${WAYMARK_FUZZ_ARGS:-}" ]] && options+=(${WAYMARK_FUZZ_ARGS})
    local length="$seconds s"
    [[ -n "${RUNS:-}" ]] && length="$RUNS inputs"
    echo "fuzz.sh: $target for $length from $seeds seeds" >&2
    # The Swift backtracer would replace the sanitizer's report with its own.
    local started=$SECONDS
    (cd "$WORK" && TMPDIR="$WORK" SWIFT_BACKTRACE=enable=no \
        "$BIN/fuzz-$target" "${options[@]}" "$corpus" >"$log" 2>&1)
    local status=$? elapsed=$((SECONDS - started))
    after=$(find "$crashes" -type f | wc -l)
    local found=$((after - before))

    local execs rate progress cov ft corp
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    progress=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' <<<"$progress" | grep -oE '[0-9]+')
    ft=$(grep -oE 'ft: [0-9]+' <<<"$progress" | grep -oE '[0-9]+')
    corp=$(grep -oE 'corp: [0-9]+' <<<"$progress" | grep -oE '[0-9]+')
    [[ -z "$execs" ]] && execs=$(grep -oE '^#[0-9]+' <<<"$progress" | tr -d '#')
    # Fork mode prints no final stats: executions over the run's time instead.
    [[ -z "$rate" && -n "$execs" && $elapsed -gt 0 ]] && rate=$((execs / elapsed))
    local line
    line=$(printf '%-21s %5s s  execs %10s  exec/s %7s  cov: %5s  ft: %6s  corpus %5s  crashes %s' \
        "$target" "$elapsed" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$found")
    echo "$line"
    SUMMARY+=("$line")
    if ((status != 0 || found > 0)); then
        FAILED+=("$target")
        echo "fuzz.sh: $target FAILED (libFuzzer exit $status); input(s) in Fuzz/Crashes/$target/:" >&2
        find "$crashes" -type f -newer "$WORK/started-$target" -printf '  %p\n' >&2
        echo "fuzz.sh: reproduce with: SWIFT_BACKTRACE=enable=no $BIN/fuzz-$target INPUT" >&2
        echo "----- the end of the log -----" >&2
        grep -vE '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse|INITED|RELOAD)' "$log" | tail -60 >&2
        echo "------------------------------" >&2
    fi
}

[[ $# -ge 1 ]] || usage
case "$1" in
    list) printf '%s\n' "${TARGETS[@]}"; exit 0 ;;
    build) build; exit 0 ;;
    -h | --help) usage ;;
esac
if [[ "$1" == smoke ]]; then
    [[ $# -le 2 ]] || usage
    RUNS=${2:-5000}
    [[ "$RUNS" =~ ^[0-9]+$ && "$RUNS" -gt 0 ]] || die "RUNS must be a positive whole number, not '$RUNS'"
    set -- all 0
fi
[[ $# -eq 2 ]] || usage
[[ "$2" =~ ^[0-9]+$ && ( "$2" -gt 0 || -n "${RUNS:-}" ) ]] || die "SECONDS must be a positive whole number, not '$2'"
if [[ "$1" == all ]]; then
    selected=("${TARGETS[@]}")
    build
else
    is_target "$1" || die "no target '$1'; one of: ${TARGETS[*]} (or all)"
    selected=("$1")
    build --product "fuzz-$1"
fi
have_data gpx || echo "fuzz.sh: no test data at $DATA; seeding from the repository alone" >&2

WORK=$(mktemp -d "${TMPDIR:-/tmp}/waymark-fuzz.XXXXXX")
if [[ -n "${WAYMARK_FUZZ_KEEP:-}" ]]; then
    echo "fuzz.sh: corpora and logs kept in $WORK" >&2
else
    trap 'rm -rf "$WORK"' EXIT
fi

for target in "${selected[@]}"; do run "$target" "$2"; done

if ((${#selected[@]} > 1)); then
    echo
    echo "summary ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores):"
    printf '%s\n' "${SUMMARY[@]}"
fi
if ((${#FAILED[@]} > 0)); then
    echo "fuzz.sh: findings in: ${FAILED[*]} (inputs in Fuzz/Crashes/)" >&2
    exit 1
fi
