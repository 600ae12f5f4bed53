#!/usr/bin/python3
"""Draws the web page's offline basemap (docs/web.md, "Basemap"): land, sea, coastlines and
national borders from GSHHG (Debian's gmt-gshhg-low, read through GMT), as PNG tiles in Web
Mercator at zooms 0…MAX, into an MBTiles 1.3 file. Called by scripts/basemap-data.sh.

The land is GMT's own land/water mask (`gmt grdlandmask`, lakes as water) sampled at the centre
of every pixel of the deepest zoom, in latitude bands fine enough for Mercator's stretch; each
shallower zoom averages it down, so its coastline is antialiased. Coastlines and borders are
GMT's line dumps (`gmt coast -M`) burnt by GDAL at twice the resolution and counted down to
quarters of a pixel; a palette gives each mix of land and lines its colour.

Usage: /usr/bin/python3 scripts/basemap_data.py --gshhg DIR --copyright FILE --data-version V
       --out FILE.mbtiles [--max-zoom 6]   (needs gmt, python3-gdal, python3-numpy)
"""
import argparse
import math
import os
import sqlite3
import struct
import subprocess
import sys
import tempfile
import zlib

import numpy as np
from osgeo import gdal, ogr, osr

FORMAT_VERSION = 2
TILE = 256
HALF_WORLD = 20037508.342789244  # Web Mercator's half width in metres
SEA = (214, 226, 234)  # light blue-grey
LAND = (246, 245, 240)  # off-white
# Lines over the land and sea, in the order drawn: each a colour and its opacity where a line
# covers a whole pixel. Lake shores are fainter, so a narrow lake stays light when the map is
# zoomed past the basemap's deepest zoom and its pixels are drawn large.
BORDER = ((162, 162, 170), 0.7)  # lighter grey
LAKE_SHORE = ((150, 168, 180), 0.6)
COAST = ((128, 146, 158), 0.85)  # grey-blue, mostly opaque
LAND_STEPS = 16  # a pixel's share of land, in sixteenths
LINE_STEPS = 4  # a pixel's share of a line, in quarters (2 × 2 burnt pixels)


def shoreline_resolution(zoom):
    """GSHHG's crude, low or intermediate data, as fine as the zoom can show."""
    return "c" if zoom <= 2 else "l" if zoom <= 4 else "i"


def gmt(arguments, gshhg, work):
    """GMT's output; run in the work folder, where it leaves its gmt.history."""
    result = subprocess.run(["gmt", *arguments, f"--DIR_GSHHG={gshhg}"], capture_output=True, text=True, cwd=work)
    # GMT says [ERROR] and goes on with its own default data when it cannot read the files given.
    if result.returncode != 0 or "[ERROR]" in result.stderr:
        sys.exit(f"basemap-data: gmt {' '.join(arguments)} failed: {result.stderr.strip()}")
    return result.stdout


def edge_latitudes(size):
    """The latitude of each pixel row's top edge (and the last row's bottom edge) in a Web
    Mercator image `size` pixels high."""
    y = math.pi * (1 - 2 * np.arange(size + 1) / size)
    return np.degrees(np.arctan(np.sinh(y)))


def land_mask(size, gshhg, work):
    """1 where the centre of a pixel of the `size`² world image is land (lakes are water)."""
    edges = edge_latitudes(size)
    heights = edges[:-1] - edges[1:]
    centres = (edges[:-1] + edges[1:]) / 2
    mask = np.zeros((size, size), dtype=np.uint8)
    row = 0
    while row < size:
        # A band of rows whose heights differ by under 10 %: one grid of GMT's, as fine as the
        # band's thinnest row, so that each row's centre falls in one of the grid's rows.
        end = row + 1
        while end < size and abs(heights[end] / heights[row] - 1) < 0.1:
            end += 1
        north, south = float(edges[row]), float(edges[end])
        count = math.ceil((north - south) / float(heights[row:end].min()))
        spacing = (north - south) / count
        grid = os.path.join(work, "band.nc")
        gmt(["grdlandmask", f"-R-180/180/{south!r}/{north!r}", f"-I{360 / size!r}/{spacing!r}", "-r", "-Di",
             "-A0+l", "-N0/1/0/1/0", f"-G{grid}=nb"], gshhg, work)
        values = gdal.Open(grid).ReadAsArray()  # north first
        if values.shape != (count, size):
            sys.exit(f"basemap-data: gmt grdlandmask made a {values.shape} grid, not {(count, size)}")
        indices = np.clip(((north - centres[row:end]) / spacing).astype(int), 0, count - 1)
        mask[row:end] = values[indices] == 1
        row = end
    return mask


def lines_layer(arguments, gshhg, work, source, name):
    """GMT's multisegment dump as an in-memory layer of Web Mercator line strings, each with its
    `kind`: 1 for a sea shore or a border, 2 for the shore of a lake (GSHHG's levels 2 to 4)."""
    layer = source.CreateLayer(name, srs=mercator(), geom_type=ogr.wkbLineString)
    layer.CreateField(ogr.FieldDefn("kind", ogr.OFTInteger))
    points = []
    kind = 1

    def flush():
        if len(points) >= 2:
            line = ogr.Geometry(ogr.wkbLineString)
            for lon, lat in points:
                lat = max(-85.06, min(85.06, lat))
                line.AddPoint_2D(math.radians(lon) * 6378137, math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) * 6378137)
            feature = ogr.Feature(layer.GetLayerDefn())
            feature.SetGeometry(line)
            feature.SetField("kind", kind)
            layer.CreateFeature(feature)
        points.clear()

    for text in gmt(arguments, gshhg, work).splitlines():
        if text.startswith(">"):
            flush()
            kind = 1 if text.rstrip().endswith("Level 1") or "Level" not in text else 2
        elif text.strip():
            lon, lat = text.split()[:2]
            points.append((float(lon), float(lat)))
    flush()
    return layer


def mercator():
    reference = osr.SpatialReference()
    reference.ImportFromEPSG(3857)
    return reference


def line_coverage(layer, west, north, metres, size):
    """How many quarters of each of `size`² pixels the lines of kind 1 and of kind 2 cover (0…4):
    burnt at twice the resolution (the kind as a bit) and thickened by a pixel there."""
    raster = gdal.GetDriverByName("MEM").Create("", 2 * size, 2 * size, 1, gdal.GDT_Byte)
    raster.SetGeoTransform((west, metres / 2, 0, north, 0, -metres / 2))
    raster.SetProjection(mercator().ExportToWkt())
    layer.SetSpatialFilterRect(west - metres, north - metres * (size + 1), west + metres * (size + 1), north + metres)
    gdal.RasterizeLayer(raster, [1], layer, options=["ATTRIBUTE=kind"])
    burnt = raster.ReadAsArray()
    thick = burnt.copy()
    thick[1:] |= burnt[:-1]
    thick[:, 1:] |= burnt[:, :-1]
    return [halve((thick & bit) != 0) for bit in (1, 2)]


def halve(values):
    """Each 2 × 2 square of `values` summed: an image half as wide and high."""
    # Added to in place, in bytes while the sums fit: no copy of the whole of `values`.
    total = values[0::2, 0::2].astype(np.uint8 if values.dtype == np.uint8 and values.max() <= 63 else np.uint16)
    for row, column in ((0, 1), (1, 0), (1, 1)):
        total += values[row::2, column::2]
    return total


def palette():
    """The colour of every pixel state: indexed by ((land × 5 + border) × 5 + lake shore) × 5 +
    coast, the land in sixteenths and the lines in quarters."""
    land = np.arange(LAND_STEPS + 1) / LAND_STEPS
    line = np.arange(LINE_STEPS + 1) / LINE_STEPS
    share, border, lake, coast = np.meshgrid(land, line, line, line, indexing="ij")
    image = np.array(SEA) + (np.array(LAND) - np.array(SEA)) * share[..., None]
    for cover, (colour, opacity) in ((border, BORDER), (lake, LAKE_SHORE), (coast, COAST)):
        alpha = (cover * opacity)[..., None]
        image = image * (1 - alpha) + np.array(colour) * alpha
    return np.clip(image + 0.5, 0, 255).astype(np.uint8).reshape(-1, 3)


def png(pixels):
    """An 8-bit RGB PNG of an H×W×3 array; each row filtered by its difference from the one above."""
    height, width, _ = pixels.shape
    rows = pixels.astype(np.int16)
    filtered = np.empty((height, 1 + width * 3), dtype=np.uint8)
    filtered[:, 0] = 2  # "Up"
    filtered[0, 1:] = pixels[0].reshape(-1)
    filtered[1:, 1:] = ((rows[1:] - rows[:-1]) % 256).reshape(height - 1, -1).astype(np.uint8)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(filtered.tobytes(), 6)) + chunk(b"IEND", b"")


def attribution(copyright_file, version):
    """"GSHHG 2.3.7 © 2014 The GMT Team, LGPL-3+": the data's name, and the copyright and
    licence of its files (the `Files: *` paragraph) as its Debian copyright file states them."""
    paragraphs = [dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(" "))
                  for block in open(copyright_file, encoding="utf-8").read().split("\n\n")]
    name = paragraphs[0].get("Upstream-Name")
    files = next((p for p in paragraphs if p.get("Files") == "*"), {})
    if not name or "Copyright" not in files or "License" not in files:
        sys.exit(f"basemap-data: {copyright_file} names no Upstream-Name, or no Copyright and License for Files: *")
    holder = files["Copyright"].replace(", ", " ", 1)
    return f"{name} {version} © {holder}, {files['License']}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gshhg", required=True, help="the GSHHG directory (binned_GSHHS_*.nc, binned_border_*.nc)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--max-zoom", type=int, default=6)
    parser.add_argument("--copyright", required=True, help="the data's Debian copyright file, for the attribution")
    parser.add_argument("--data-version", required=True, help="the data's upstream version, for the attribution")
    options = parser.parse_args()
    for resolution in sorted({shoreline_resolution(z) for z in range(options.max_zoom + 1)}):
        for kind in ("GSHHS", "border"):
            if not os.path.isfile(os.path.join(options.gshhg, f"binned_{kind}_{resolution}.nc")):
                sys.exit(f"basemap-data: no GSHHG data in {options.gshhg} (binned_{kind}_{resolution}.nc is missing; install gmt-gshhg-low)")
    gdal.UseExceptions()
    if os.path.exists(options.out):
        os.remove(options.out)
    database = sqlite3.connect(options.out)
    database.executescript("""
        CREATE TABLE metadata (name TEXT, value TEXT);
        CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
        CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
    """)
    metadata = {
        "name": "Waymark world", "format": "png", "type": "baselayer", "version": str(FORMAT_VERSION),
        "description": "Land, sea, coastlines and national borders from GSHHG, drawn by scripts/basemap_data.py",
        "bounds": "-180,-85.0511,180,85.0511", "center": "0,20,2", "minzoom": "0", "maxzoom": str(options.max_zoom),
        "attribution": attribution(options.copyright, options.data_version),
    }
    database.executemany("INSERT INTO metadata VALUES (?, ?)", metadata.items())

    with tempfile.TemporaryDirectory() as work:
        gshhg = options.gshhg
        # How many pixels of the deepest zoom's land mask each pixel of each zoom covers.
        land = {options.max_zoom: land_mask(TILE << options.max_zoom, gshhg, work)}
        for zoom in range(options.max_zoom - 1, -1, -1):
            land[zoom] = halve(land[zoom + 1])
        colours = palette()
        layers = ogr.GetDriverByName("Memory").CreateDataSource("lines")
        lines = {}
        for zoom in range(options.max_zoom + 1):
            # GSHHG's resolution for the zoom, and no shore round less than about a pixel's area;
            # wide rivers (GSHHG's riverlakes) are land, as in the mask.
            resolution = shoreline_resolution(zoom)
            area = round((40075 / (TILE << zoom)) ** 2)
            lines[zoom] = (
                lines_layer(["coast", "-Rd", f"-D{resolution}", f"-A{area}+l", "-W", "-M"], gshhg, work, layers, f"coast-{zoom}"),
                lines_layer(["coast", "-Rd", f"-D{resolution}", "-N1", "-M"], gshhg, work, layers, f"border-{zoom}"))
        for zoom in range(options.max_zoom + 1):
            coast, border = lines[zoom]
            tiles = 1 << zoom
            block = min(tiles, 8)  # tiles a side drawn at once
            size = block * TILE
            factor = 1 << (options.max_zoom - zoom)
            metres = 2 * HALF_WORLD / (TILE << zoom)
            for top in range(0, tiles, block):
                for left in range(0, tiles, block):
                    share = land[zoom][top * TILE:(top + block) * TILE, left * TILE:(left + block) * TILE].astype(np.uint32)
                    share = (share * LAND_STEPS + factor * factor // 2) // (factor * factor)
                    west, north = -HALF_WORLD + left * TILE * metres, HALF_WORLD - top * TILE * metres
                    border_cover = line_coverage(border, west, north, metres, size)[0]
                    coast_cover, lake_cover = line_coverage(coast, west, north, metres, size)
                    steps = LINE_STEPS + 1
                    image = colours[((share * steps + border_cover) * steps + lake_cover) * steps + coast_cover]
                    database.executemany(
                        "INSERT INTO tiles VALUES (?, ?, ?, ?)",
                        ((zoom, left + i, tiles - 1 - (top + j), png(image[j * TILE:(j + 1) * TILE, i * TILE:(i + 1) * TILE]))
                         for j in range(block) for i in range(block)))
            print(f"basemap-data: zoom {zoom}: {tiles * tiles} tiles", flush=True)
    database.commit()
    database.execute("VACUUM")
    database.close()


if __name__ == "__main__":
    main()
