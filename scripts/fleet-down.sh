#!/usr/bin/env bash
# Stops the local development fleet scripts/fleet-up.sh started in DIR: the waymark nodes, then
# nats-server, then PostgreSQL. DIR's data stays for the next fleet-up unless --purge.
#
#   scripts/fleet-down.sh [--dir DIR] [--purge]      (DIR as for fleet-up.sh)
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/fleet-up.sh" --down "$@"
