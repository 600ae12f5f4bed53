#!/usr/bin/env bash
# Draws the web page's offline basemap (docs/web.md, "Basemap") into
# /usr/local/share/waymark/basemap.mbtiles: land, sea, coastlines and national borders from GSHHG
# (Debian's gmt-gshhg-low, read through GMT), as PNG tiles at zooms 0…6, by GDAL and numpy
# (scripts/basemap_data.py). Needs no network. Idempotent: skips when the installed file's stamp
# names this drawing's version and the installed packages' versions. Called by
# install-dependencies.sh; WAYMARK_BASEMAP_TARGET and WAYMARK_BASEMAP_GSHHG (the data's
# directory) are for trying it elsewhere.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
target=${WAYMARK_BASEMAP_TARGET:-/usr/local/share/waymark/basemap.mbtiles}
gshhg=${WAYMARK_BASEMAP_GSHHG:-/usr/share/gmt-gshhg}
copyright=/usr/share/doc/gmt-gshhg-low/copyright
max_zoom=6

fail() { echo "basemap-data: $*" >&2; exit 1; }
command -v gmt >/dev/null || fail "gmt is missing: install Debian's gmt (scripts/install-dependencies.sh)"
/usr/bin/python3 -c 'from osgeo import gdal, ogr; import numpy' 2>/dev/null \
    || fail "python3-gdal or python3-numpy is missing: install them (scripts/install-dependencies.sh)"
[ -f "$copyright" ] || fail "$copyright is missing: install Debian's gmt-gshhg-low"
[ -f "$gshhg/binned_GSHHS_i.nc" ] && [ -f "$gshhg/binned_border_i.nc" ] \
    || fail "no GSHHG data in $gshhg (binned_GSHHS_i.nc, binned_border_i.nc): install Debian's gmt-gshhg-low"

version=$(sed -n 's/^FORMAT_VERSION = \([0-9]*\)$/\1/p' "$here/basemap_data.py")
data_version=$(dpkg-query -W -f='${Version}' gmt-gshhg-low)
# The stamp names what the file was built from; a change here rebuilds it.
stamp="format $version; zooms 0-$max_zoom; gmt $(dpkg-query -W -f='${Version}' gmt); gmt-gshhg-low $data_version from $gshhg"

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ -f "$target" ] && [ "$(cat "$target.source" 2>/dev/null)" = "$stamp" ]; then
    echo "basemap-data: $target is current (format $version, zooms 0-$max_zoom)"
    exit 0
fi

echo "basemap-data: drawing $target (zooms 0-$max_zoom; about a minute)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$here/basemap_data.py" --gshhg "$gshhg" --copyright "$copyright" \
    --data-version "${data_version%-*}" --max-zoom "$max_zoom" --out "$work/basemap.mbtiles"
$sudo mkdir -p "$(dirname "$target")"
# Installed beside the target and renamed over it: a reader never sees half a file.
$sudo install -m 644 "$work/basemap.mbtiles" "$target.new"
$sudo mv -f "$target.new" "$target"
echo "$stamp" | $sudo tee "$target.source" >/dev/null
echo "basemap-data: installed $target ($(stat -c %s "$target") bytes)"
