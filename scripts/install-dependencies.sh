#!/usr/bin/env bash
# Installs the Debian 12 packages Waymark builds against, runs with, and tests with.
# Idempotent; uses sudo when not run as root.
set -euo pipefail

packages=(
    pkg-config
    # C libraries linked through system-library targets
    libgps-dev libproj-dev libsqlite3-dev libspatialite-dev libsqlite3-mod-spatialite
    # cairo draws the PNG pictures of `waymark export`; DejaVu is the font their labels ask for
    libcairo2-dev fonts-dejavu-core
    # the live source and its test tools (gpsd, gpsfake, gpspipe; gpsfake needs python3-gps)
    gpsd gpsd-clients python3-gps
    # independent readers the tests compare against: spatialite, ogrinfo, gpxpy, geographiclib, sqlite3;
    # jsonschema and yaml check the API against docs/openapi.yaml
    spatialite-bin gdal-bin python3 python3-gpxpy python3-geographiclib python3-jsonschema python3-yaml sqlite3
)

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-dependencies: all ${#packages[@]} Debian packages already installed"
    exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-dependencies: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# gpsd's package enables a system socket on port 2947; Waymark's tests start their own gpsd.
echo "install-dependencies: done"
