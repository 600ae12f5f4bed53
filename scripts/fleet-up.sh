#!/usr/bin/env bash
# A local development fleet (docs/fleet.md) on one machine, without containers: a private
# PostgreSQL 15 + PostGIS 3 server, a private nats-server with JetStream, and (unless
# --servers-only) one `waymark serve --fleet` ingest node, N workers, M output nodes and (unless
# --no-api) an api node serving the HTTP API and the web page, all in DIR.
#
#   scripts/fleet-up.sh [--dir DIR] [--workers N] [--output-nodes M] [--servers-only] [--no-api] [--partitions P]
#                       [--pg-port PORT] [--nats-port PORT] [--ingest-port PORT] [--api-port PORT]
#   scripts/fleet-down.sh [--dir DIR] [--purge]          (the same as fleet-up.sh --down)
#
# DIR defaults to ${XDG_RUNTIME_DIR:-/tmp}/waymark-fleet. Everything listens on 127.0.0.1 only,
# on free ports (the ones of DIR's previous run when still free, so its URLs survive a restart).
# fleet-up writes the URLs to DIR/fleet.env and prints them on stdout (progress goes to stderr):
#
#   WAYMARK_POSTGRES=postgres://waymark@127.0.0.1:PGPORT/waymark
#   WAYMARK_NATS=nats://127.0.0.1:NATSPORT
#   WAYMARK_NATS_MONITOR=http://127.0.0.1:MONITORPORT
#   WAYMARK_FLEET_DIR=DIR
#   WAYMARK_INGEST=http://127.0.0.1:INGESTPORT       (not with --servers-only)
#   WAYMARK_API=http://127.0.0.1:APIPORT             (not with --servers-only or --no-api; the web
#   WAYMARK_API_TOKEN_FILE=DIR/api-token              page and API, with the bearer token in that file)
#
# so a shell can `set -a; . DIR/fleet.env; set +a`. Layout of DIR: pg/ (the cluster), pg-socket/,
# pg.log, nats/ (JetStream's store), nats.log, ingest.log, worker-K.log, output-K.log, api.log, api.sock, api-token, and a NAME.pid per
# process. fleet-down stops them all and leaves the data for the next fleet-up unless --purge.
#
# The waymark nodes run $WAYMARK (a path from the current directory), by default the
# repository's .build/release/waymark, from the repository's root. As root, initdb and postgres (which refuse root) run as the `postgres`
# user, and DIR/pg belongs to it; otherwise everything runs as the current user.
# PostgreSQL's initdb skips its fsyncs (--no-sync: a dev cluster that is rebuilt at will), but
# the server keeps fsync on: the durability tests kill it and expect committed data back.
set -euo pipefail

PATH="$PATH:/usr/sbin:/sbin"  # nats-server and runuser live in sbin, not on every user's PATH
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
pg_bin=/usr/lib/postgresql/15/bin
me=fleet-up

log() { echo "$me: $*" >&2; }
die() { echo "$me: error: $*" >&2; exit 1; }

usage() {
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

# --- Arguments -----------------------------------------------------------------------------

mode=up
dir="${XDG_RUNTIME_DIR:-/tmp}/waymark-fleet"
workers=2
output_nodes=1
servers_only=false
partitions=""
purge=false
pg_port=""
nats_port=""
ingest_port=""
api=true
api_port=""

value() {  # value OPTION NEXT-ARG: the option's argument, or a clear error
    [ -n "${2-}" ] || die "$1 needs a value (see --help)"
    printf '%s' "$2"
}
is_port() { [[ $1 =~ ^[0-9]+$ ]] && [ "$1" -ge 1024 ] && [ "$1" -le 65535 ]; }

while [ $# -gt 0 ]; do
    case "$1" in
        --dir) dir=$(value "$1" "${2-}"); shift ;;
        --dir=*) dir=${1#*=} ;;
        --workers) workers=$(value "$1" "${2-}"); shift ;;
        --workers=*) workers=${1#*=} ;;
        --output-nodes) output_nodes=$(value "$1" "${2-}"); shift ;;
        --output-nodes=*) output_nodes=${1#*=} ;;
        --partitions) partitions=$(value "$1" "${2-}"); shift ;;
        --partitions=*) partitions=${1#*=} ;;
        --pg-port) pg_port=$(value "$1" "${2-}"); shift ;;
        --pg-port=*) pg_port=${1#*=} ;;
        --nats-port) nats_port=$(value "$1" "${2-}"); shift ;;
        --nats-port=*) nats_port=${1#*=} ;;
        --ingest-port) ingest_port=$(value "$1" "${2-}"); shift ;;
        --ingest-port=*) ingest_port=${1#*=} ;;
        --servers-only) servers_only=true ;;
        --no-api) api=false ;;
        --api-port) api_port=$(value "$1" "${2-}"); shift ;;
        --api-port=*) api_port=${1#*=} ;;
        --down) mode=down ;;
        --purge) purge=true ;;
        -h | --help) usage; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
    shift
done

[ "$mode" = down ] && me=fleet-down
[[ $workers =~ ^[0-9]+$ ]] || die "--workers needs a whole number, not '$workers'"
[[ $output_nodes =~ ^[0-9]+$ ]] || die "--output-nodes needs a whole number, not '$output_nodes'"
[ -z "$partitions" ] || [[ $partitions =~ ^[1-9][0-9]*$ ]] || die "--partitions needs a positive number, not '$partitions'"
for port in "$pg_port" "$nats_port" "$ingest_port" "$api_port"; do
    [ -z "$port" ] || is_port "$port" || die "a port must be a number from 1024 to 65535, not '$port'"
done
if [ "$mode" = up ] && $purge; then die "--purge goes with --down (or scripts/fleet-down.sh)"; fi

dir=$(realpath -m -- "$dir")
# DIR ends up in URLs-adjacent config, a socket path and fleet.env, which `.` must read as is.
[[ $dir =~ ^[A-Za-z0-9._/@+,:~-]+$ ]] || die "DIR '$dir' may only hold letters, digits and ._/@+,:~- (no spaces or quotes)"
[ "$dir" != / ] || die "DIR may not be /"
# A Unix socket's path is at most 107 bytes: DIR/pg-socket/.s.PGSQL.PORT must fit.
socket_suffix="/pg-socket/.s.PGSQL.65535"
[ $((${#dir} + ${#socket_suffix})) -le 107 ] ||
    die "DIR '$dir' is too long for PostgreSQL's socket path (at most $((107 - ${#socket_suffix})) characters)"

# Settings in the caller's environment (PGPORT, PGDATA, PGHOST…) must not redirect the tools.
while read -r variable; do unset "$variable"; done < <(compgen -e | grep '^PG' || true)

is_root=false
[ "$(id -u)" -eq 0 ] && is_root=true

# --- Processes and their pid files ---------------------------------------------------------

# matches PID PATTERN: PID is a live (not zombie) process whose command line contains PATTERN.
# Guards against a pid file naming a process that has since exited and whose pid was reused.
matches() {
    local pid=$1 pattern=$2 cmdline state
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    state=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$pid/status" 2>/dev/null) || return 1
    [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ] || return 1
    cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
    [[ $cmdline == *"$pattern"* ]]
}

# pattern_for PIDFILE: what the command line of the process a pid file names must contain.
pattern_for() {
    case "$(basename "$1")" in
        nats.pid) echo "-sd $dir/nats" ;;
        *) echo "serve --fleet" ;;
    esac
}

# await_exec PIDFILE: waits until the process just started in the background (a subshell until it
# execs) has become the command its pid file is for, or has exited. Until then its command line is
# this script's, and running_pid would take a starting server for a dead one.
await_exec() {
    local pid state deadline=$((SECONDS + 10))
    pid=$(head -n 1 "$1" 2>/dev/null) || return 0
    while [ $SECONDS -lt $deadline ]; do
        matches "$pid" "$(pattern_for "$1")" && return 0
        state=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$pid/status" 2>/dev/null)
        [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ] || return 0
        sleep 0.02
    done
}

# running_pid PIDFILE: prints the pid if that file names a process of this fleet that runs.
running_pid() {
    local pid
    [ -f "$1" ] || return 1
    pid=$(head -n 1 "$1" 2>/dev/null) || return 1
    matches "$pid" "$(pattern_for "$1")" || return 1
    echo "$pid"
}

# postmaster_pid: prints the pid of DIR's PostgreSQL server if it runs.
postmaster_pid() {
    local pid
    [ -f "$dir/pg/postmaster.pid" ] || return 1
    pid=$(head -n 1 "$dir/pg/postmaster.pid" 2>/dev/null) || return 1
    matches "$pid" "$dir/pg" || return 1
    echo "$pid"
}

# close_fds: closes every descriptor but 0-2 in this (sub)shell, before it execs a daemon, so
# that no server keeps the lock or a pipe it inherited (a test runner's output) open for life.
close_fds() {
    local fd
    for fd in /proc/"$BASHPID"/fd/*; do
        fd=${fd##*/}
        if [ "$fd" -gt 2 ] && [ -e "/proc/$BASHPID/fd/$fd" ]; then exec {fd}>&-; fi
    done
}

# as_pg COMMAND…: runs a PostgreSQL server tool as the user owning the cluster (postgres when
# we are root: initdb, pg_ctl and postgres refuse root), from / so that it never trips over a
# working directory it may not enter (/root).
as_pg() {
    local owner=postgres
    [ -d "$dir/pg" ] && owner=$(stat -c %U "$dir/pg")
    if $is_root; then
        [ "$owner" != root ] || die "$dir/pg belongs to root; PostgreSQL refuses to run as root (remove it, or chown -R postgres it)"
        (cd / && close_fds && exec runuser -u "$owner" -- "$@")
    else
        [ "$owner" = "$(id -un)" ] || [ ! -d "$dir/pg" ] ||
            die "$dir/pg belongs to $owner: run $me as root or as $owner"
        (close_fds && exec "$@")
    fi
}

# terminate LABEL SECONDS PIDFILE…: SIGTERM the processes the files name, wait up to SECONDS
# for all of them to exit, SIGKILL the ones that did not (saying so), remove the files.
terminate() {
    local label=$1 timeout=$2 file pid deadline left
    shift 2
    local pids=()
    for file in "$@"; do
        [ -f "$file" ] || continue
        if pid=$(running_pid "$file"); then
            kill -TERM "$pid" 2>/dev/null || true
            pids+=("$pid:$file")
        else
            rm -f "$file"  # stale: that process has already gone
        fi
    done
    [ ${#pids[@]} -gt 0 ] || return 0
    log "stopping $label (${#pids[@]} process$([ ${#pids[@]} -eq 1 ] || echo es))"
    deadline=$((SECONDS + timeout))
    while :; do
        left=()
        for pid in "${pids[@]}"; do
            if running_pid "${pid#*:}" >/dev/null; then left+=("$pid"); else rm -f "${pid#*:}"; fi
        done
        [ ${#left[@]} -gt 0 ] || return 0
        [ $SECONDS -lt $deadline ] || break
        pids=("${left[@]}")
        sleep 0.1
    done
    for pid in "${left[@]}"; do
        log "warning: $(basename "${pid#*:}" .pid) (pid ${pid%%:*}) ignored SIGTERM for ${timeout}s; sending SIGKILL"
        kill -KILL "${pid%%:*}" 2>/dev/null || true
        rm -f "${pid#*:}"
    done
}

# stop_fleet: stops whatever of DIR's fleet runs — the waymark nodes first (they flush to the
# servers while stopping), then nats-server, then PostgreSQL.
stop_fleet() {
    local file nodes=()
    for file in "$dir"/*.pid; do
        [ -f "$file" ] && [ "$(basename "$file")" != nats.pid ] && nodes+=("$file")
    done
    [ ${#nodes[@]} -eq 0 ] || terminate "waymark nodes" 30 "${nodes[@]}"
    terminate nats-server 15 "$dir/nats.pid"
    if postmaster_pid >/dev/null; then
        log "stopping PostgreSQL (pg_ctl stop -m fast)"
        as_pg "$pg_bin/pg_ctl" -D "$dir/pg" stop -m fast -w -t 60 -s ||
            die "pg_ctl could not stop the server in $dir/pg (see $dir/pg.log)"
    fi
}

# --- Down ----------------------------------------------------------------------------------

if [ "$mode" = down ]; then
    if [ ! -d "$dir" ]; then
        log "no fleet directory $dir: nothing to stop"
        exit 0
    fi
    exec 9>>"$dir/.lock"
    flock -w 120 9 || die "another fleet-up or fleet-down is still working on $dir"
    stop_fleet
    if $purge; then
        # Only ever remove a directory made of what fleet-up puts there: a mistyped --dir
        # (a home folder, a repository) is refused rather than emptied.
        for entry in "$dir"/* "$dir"/.[!.]*; do
            [ -e "$entry" ] || continue
            case "$(basename "$entry")" in
                .lock | fleet.env | fleet.env.tmp | pg | pg-socket | nats | *.log | *.pid | api.sock | api-token) ;;
                *) die "not purging $dir: it holds $(basename "$entry"), which fleet-up did not make" ;;
            esac
        done
        rm -rf -- "$dir"
        log "fleet stopped; removed $dir"
    else
        log "fleet stopped; its data is left in $dir (PostgreSQL in pg/, JetStream in nats/, logs) for the next fleet-up; --purge removes it"
    fi
    exit 0
fi

# --- Up: preconditions ---------------------------------------------------------------------

for tool in initdb pg_ctl postgres psql; do
    [ -x "$pg_bin/$tool" ] || die "$pg_bin/$tool is missing: install the Debian package postgresql-15 (scripts/install-dependencies.sh)"
done
ls /usr/share/postgresql/15/extension/postgis.control >/dev/null 2>&1 ||
    die "PostGIS for PostgreSQL 15 is missing: install the Debian package postgresql-15-postgis-3 (scripts/install-dependencies.sh)"
nats=$(command -v nats-server) ||
    die "nats-server is missing: install the Debian package nats-server (scripts/install-dependencies.sh)"
command -v python3 >/dev/null || die "python3 is missing (it picks free ports): install the Debian package python3"
command -v flock >/dev/null || die "flock is missing: install the Debian package util-linux"
if $is_root; then
    command -v runuser >/dev/null || die "runuser is missing: install the Debian package util-linux"
    id postgres >/dev/null 2>&1 ||
        die "there is no postgres user to run PostgreSQL as (root may not): install postgresql-15, or run $me as another user"
fi
waymark=""
if ! $servers_only; then
    waymark=${WAYMARK:-$repo/.build/release/waymark}
    [[ $waymark == /* ]] || waymark="$PWD/$waymark"
    [ -x "$waymark" ] ||
        die "no waymark executable at $waymark: build it with \`swift build -c release --product waymark\` (or set WAYMARK, or use --servers-only)"
fi

mkdir -p "$dir"
exec 9>>"$dir/.lock"  # closed (close_fds) for every process started below, so none holds it
flock -n 9 || die "another fleet-up or fleet-down is working on $dir"

running=()
for file in "$dir"/*.pid; do
    if pid=$(running_pid "$file"); then running+=("$(basename "$file" .pid) (pid $pid)"); fi
done
if pid=$(postmaster_pid); then running+=("postgres (pid $pid)"); fi
[ ${#running[@]} -eq 0 ] ||
    die "$dir holds a running fleet: ${running[*]}; stop it with scripts/fleet-down.sh --dir $dir"
rm -f "$dir"/*.pid

# From here on, a failure (or ^C) stops whatever was started; the logs stay for a look.
started_at=$(date +%s%N)
on_exit() {
    local status=$?
    if [ "$status" -ne 0 ]; then
        log "startup failed; stopping what was started (logs are in $dir)"
        stop_fleet || true
    fi
}
trap on_exit EXIT
trap 'exit 130' INT TERM

# tail_log FILE: the end of a log, indented, for an error message.
tail_log() { if [ -f "$1" ]; then tail -n 15 "$1" | sed 's/^/    /' >&2; fi; }

# --- Ports ---------------------------------------------------------------------------------

# free_ports COUNT [TAKEN…]: prints COUNT distinct free TCP ports of 127.0.0.1, none of TAKEN,
# chosen at random below the kernel's ephemeral range (where outgoing connections take theirs),
# so that neither concurrent fleets nor a busy client collide with them.
free_ports() {
    python3 - "$@" <<'EOF'
import random, socket, sys
count, taken = int(sys.argv[1]), {int(p) for p in sys.argv[2:]}
try:
    low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
except OSError:
    low = 32768
candidates = list(range(20000, low)) if low > 21000 else list(range(1024, low))
random.shuffle(candidates)
chosen = []
for port in candidates:
    if port in taken:
        continue
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers do: TIME_WAIT is no obstacle
    try:
        s.bind(("127.0.0.1", port))
    except OSError:
        continue
    finally:
        s.close()
    chosen.append(port)
    if len(chosen) == count:
        print(" ".join(map(str, chosen)))
        sys.exit(0)
sys.exit("no free ports")
EOF
}
port_free() {
    python3 -c 'import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))' "$1" 2>/dev/null
}
accepts() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# previous_port KEY: the port DIR's last fleet.env gave KEY, if that port is free now.
previous_env=$(cat "$dir/fleet.env" 2>/dev/null || true)  # read before this run rewrites it
previous_port() {
    local port
    port=$(sed -n "s|^$1=.*:\([0-9][0-9]*\)\(/.*\)\{0,1\}$|\1|p" <<<"$previous_env" | head -n 1)
    if [ -n "$port" ] && port_free "$port"; then echo "$port"; fi
}

# choose VARIABLE-VALUE KEY: an explicitly given port (which must be free), else the previous
# run's, else a new one.
choose() {
    local given=$1 key=$2 port
    if [ -n "$given" ]; then
        port_free "$given" || die "port $given is already in use on 127.0.0.1"
        echo "$given"
        return
    fi
    port=$(previous_port "$key")
    [ -n "$port" ] || port=$(free_ports 1)
    echo "$port"
}

for port in "$pg_port" "$nats_port" "$ingest_port" "$api_port"; do
    [ -z "$port" ] || port_free "$port" || die "port $port is already in use on 127.0.0.1"
done

# --- PostgreSQL + PostGIS ------------------------------------------------------------------

mkdir -p "$dir/pg" "$dir/pg-socket"
touch "$dir/pg.log"
if $is_root; then
    # postgres must reach DIR: every folder on the way must let it through (o+x).
    if ! runuser -u postgres -- test -x "$dir"; then
        path=""
        IFS=/ read -ra parts <<<"${dir#/}"
        for part in "${parts[@]}"; do
            path="$path/$part"
            runuser -u postgres -- test -x "$path" && continue
            if [ "$path" = "$dir" ] && [ "$(stat -c %u "$dir")" -eq 0 ]; then
                chmod o+x "$dir"  # our own folder: let postgres through (it lists nothing)
            else
                die "the postgres user cannot enter $path (on the way to $dir): chmod o+x it, or choose another --dir"
            fi
        done
    fi
    [ -f "$dir/pg/PG_VERSION" ] || chown postgres: "$dir/pg"
    chown postgres: "$dir/pg-socket" "$dir/pg.log"
fi
chmod 700 "$dir/pg"
chmod 755 "$dir/pg-socket"

if [ ! -f "$dir/pg/PG_VERSION" ]; then
    log "initdb $dir/pg"
    if ! as_pg "$pg_bin/initdb" -D "$dir/pg" -A trust -U waymark --encoding=UTF8 --locale=C.UTF-8 --no-sync \
        >"$dir/pg-initdb.log" 2>&1; then
        tail_log "$dir/pg-initdb.log"
        die "initdb failed (the whole output is in $dir/pg-initdb.log)"
    fi
    rm -f "$dir/pg-initdb.log"
    # The settings fleet-up owns live in fleet.conf, rewritten at every start (the port may change).
    echo "include_if_exists = 'fleet.conf'  # written by scripts/fleet-up.sh at every start" >>"$dir/pg/postgresql.conf"
fi

pg_log_size() { stat -c %s "$dir/pg.log"; }
pg_port_given=$pg_port
pg_port=$(choose "$pg_port_given" WAYMARK_POSTGRES)
for attempt in 1 2 3; do
    cat >"$dir/pg/fleet.conf" <<EOF
# Written by scripts/fleet-up.sh at every start; edits here are lost.
listen_addresses = '127.0.0.1'
port = $pg_port
unix_socket_directories = '$dir/pg-socket'
EOF
    if $is_root; then chown postgres: "$dir/pg/fleet.conf"; fi
    log "starting PostgreSQL on 127.0.0.1:$pg_port"
    before=$(pg_log_size)
    if as_pg "$pg_bin/pg_ctl" -D "$dir/pg" -l "$dir/pg.log" -w -t 60 -s start >/dev/null; then
        break
    fi
    # Another process may have taken the port between choosing and binding it: choose again.
    if [ -z "$pg_port_given" ] && [ "$attempt" -lt 3 ] && tail -c +"$((before + 1))" "$dir/pg.log" | grep -q 'already in use'; then
        log "port $pg_port was taken meanwhile; choosing another"
        pg_port=$(free_ports 1 "$pg_port")
        continue
    fi
    tail_log "$dir/pg.log"
    die "PostgreSQL did not start (the whole log is $dir/pg.log)"
done

psql_() { "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pg_port" -U waymark "$@"; }
if [ "$(psql_ -d postgres -tAc "select 1 from pg_database where datname = 'waymark'")" != 1 ]; then
    psql_ -d postgres -c 'CREATE DATABASE waymark' || die "could not create the database waymark"
fi
psql_ -d waymark -c 'CREATE EXTENSION IF NOT EXISTS postgis' 2>&1 | grep -v '^NOTICE' >&2 || true
postgis=$(psql_ -d waymark -tAc 'select postgis_lib_version()') || die "PostGIS does not work in the database waymark (see $dir/pg.log)"
log "PostgreSQL $(psql_ -d waymark -tAc 'show server_version') with PostGIS $postgis ready"

# --- nats-server with JetStream ------------------------------------------------------------

# healthy PORT: nats-server's monitor answers /healthz with "ok" (JetStream included).
healthy() {
    # shellcheck disable=SC2016 # $0 is expanded by the inner bash: the port
    timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$0" && printf "GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n" >&3 && cat <&3' "$1" 2>/dev/null |
        grep -q '"status": *"ok"'
}

mkdir -p "$dir/nats"
nats_port_given=$nats_port
nats_port=$(choose "$nats_port_given" WAYMARK_NATS)
monitor_port=$(previous_port WAYMARK_NATS_MONITOR)
[ -n "$monitor_port" ] && [ "$monitor_port" != "$nats_port" ] && [ "$monitor_port" != "$pg_port" ] ||
    monitor_port=$(free_ports 1 "$nats_port" "$pg_port")
for attempt in 1 2 3; do
    log "starting nats-server on 127.0.0.1:$nats_port (monitor $monitor_port)"
    echo "=== scripts/fleet-up.sh, $(date --iso-8601=seconds)" >>"$dir/nats.log"
    before=$(stat -c %s "$dir/nats.log")
    # setsid: a daemon of its own session, untouched by the terminal's or caller's signals.
    (close_fds && exec setsid "$nats" -js -a 127.0.0.1 -p "$nats_port" -sd "$dir/nats" -m "$monitor_port" \
        </dev/null >>"$dir/nats.log" 2>&1) &
    echo $! >"$dir/nats.pid"
    await_exec "$dir/nats.pid"
    deadline=$((SECONDS + 15))
    while [ $SECONDS -lt $deadline ] && running_pid "$dir/nats.pid" >/dev/null; do
        accepts "$nats_port" && healthy "$monitor_port" && break
        sleep 0.05
    done
    if running_pid "$dir/nats.pid" >/dev/null && accepts "$nats_port" && healthy "$monitor_port"; then
        break
    fi
    if ! running_pid "$dir/nats.pid" >/dev/null && [ -z "$nats_port_given" ] && [ "$attempt" -lt 3 ] &&
        tail -c +"$((before + 1))" "$dir/nats.log" | grep -q 'address already in use'; then
        log "port $nats_port or $monitor_port was taken meanwhile; choosing others"
        read -r nats_port monitor_port < <(free_ports 2 "$pg_port" "$nats_port" "$monitor_port")
        continue
    fi
    tail_log "$dir/nats.log"
    die "nats-server did not come up on 127.0.0.1:$nats_port (the whole log is $dir/nats.log)"
done
log "nats-server $("$nats" --version 2>/dev/null | sed 's/^nats-server: *//') with JetStream ready"

# --- fleet.env -----------------------------------------------------------------------------

{
    echo "WAYMARK_POSTGRES=postgres://waymark@127.0.0.1:$pg_port/waymark"
    echo "WAYMARK_NATS=nats://127.0.0.1:$nats_port"
    echo "WAYMARK_NATS_MONITOR=http://127.0.0.1:$monitor_port"
    echo "WAYMARK_FLEET_DIR=$dir"
} >"$dir/fleet.env.tmp"
mv "$dir/fleet.env.tmp" "$dir/fleet.env"
cat "$dir/fleet.env"
postgres_url="postgres://waymark@127.0.0.1:$pg_port/waymark"
nats_url="nats://127.0.0.1:$nats_port"

# --- The waymark nodes ---------------------------------------------------------------------

# start_node NAME ARGUMENT…: `waymark ARGUMENT…` in the background, from the repository's root,
# logging to DIR/NAME.log, its pid in DIR/NAME.pid.
start_node() {
    local name=$1
    shift
    echo "=== scripts/fleet-up.sh, $(date --iso-8601=seconds): $waymark $*" >>"$dir/$name.log"
    (cd "$repo" && close_fds && exec setsid "$waymark" "$@" </dev/null >>"$dir/$name.log" 2>&1) &
    echo $! >"$dir/$name.pid"
    await_exec "$dir/$name.pid"
}
# node_failed NAME: the node has exited; show its log and give up (the EXIT trap stops the rest).
node_failed() {
    tail_log "$dir/$1.log"
    die "$1 exited during startup (the whole log is $dir/$1.log)"
}
# await_listening NAME PORT: waits up to 60 s for node NAME to accept on PORT, or gives up.
await_listening() {
    local deadline=$((SECONDS + 60))
    until accepts "$2"; do
        running_pid "$dir/$1.pid" >/dev/null || node_failed "$1"
        [ $SECONDS -lt $deadline ] || { tail_log "$dir/$1.log"; die "the $1 node did not listen on 127.0.0.1:$2 within 60 s"; }
        sleep 0.1
    done
}

if ! $servers_only; then
    ingest_port=$(choose "$ingest_port" WAYMARK_INGEST)
    case "$ingest_port" in "$pg_port" | "$nats_port" | "$monitor_port") ingest_port=$(free_ports 1 "$pg_port" "$nats_port" "$monitor_port") ;; esac
    ingest_args=(serve --fleet --role ingest --postgres "$postgres_url" --nats "$nats_url" --listen "127.0.0.1:$ingest_port")
    [ -z "$partitions" ] || ingest_args+=(--partitions "$partitions")
    log "starting the ingest node on 127.0.0.1:$ingest_port, $workers worker$([ "$workers" -eq 1 ] || echo s) and $output_nodes output node$([ "$output_nodes" -eq 1 ] || echo s)"
    start_node ingest "${ingest_args[@]}"
    for ((k = 1; k <= workers; k++)); do
        start_node "worker-$k" serve --fleet --role worker --name "worker-$k" --postgres "$postgres_url" --nats "$nats_url"
    done
    for ((k = 1; k <= output_nodes; k++)); do
        start_node "output-$k" serve --fleet --role output --name "output-$k" --postgres "$postgres_url" --nats "$nats_url"
    done
    if $api; then
        api_port=$(choose "$api_port" WAYMARK_API)
        case "$api_port" in "$pg_port" | "$nats_port" | "$monitor_port" | "$ingest_port")
            api_port=$(free_ports 1 "$pg_port" "$nats_port" "$monitor_port" "$ingest_port") ;;
        esac
        # The API's bearer token: kept across runs, private to its owner (the node refuses others).
        if [ ! -s "$dir/api-token" ]; then
            (umask 077 && head -c 24 /dev/urandom | base64 | tr -d '/+=\n' >"$dir/api-token")
        fi
        log "starting the api node on 127.0.0.1:$api_port (token in $dir/api-token)"
        start_node api serve --fleet --role api --name api-1 --postgres "$postgres_url" --nats "$nats_url" \
            --socket "$dir/api.sock" --tcp-port "$api_port" --token-file "$dir/api-token"
    fi
    # The ingest and api nodes are up when their ports accept; a worker or output node, when it
    # is still running a moment after that (it has no port; one that cannot reach the servers
    # exits at once).
    await_listening ingest "$ingest_port"
    sleep 0.5
    for ((k = 1; k <= workers; k++)); do
        running_pid "$dir/worker-$k.pid" >/dev/null || node_failed "worker-$k"
    done
    for ((k = 1; k <= output_nodes; k++)); do
        running_pid "$dir/output-$k.pid" >/dev/null || node_failed "output-$k"
    done
    echo "WAYMARK_INGEST=http://127.0.0.1:$ingest_port" | tee -a "$dir/fleet.env"
    if $api; then
        await_listening api "$api_port"
        { echo "WAYMARK_API=http://127.0.0.1:$api_port"; echo "WAYMARK_API_TOKEN_FILE=$dir/api-token"; } | tee -a "$dir/fleet.env"
    fi
fi

log "fleet up in $((($(date +%s%N) - started_at) / 1000000))ms; stop it with scripts/fleet-down.sh --dir $dir"
