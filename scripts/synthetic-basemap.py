#!/usr/bin/python3
"""Makes the synthetic basemap of docs/images/lakeside-ride-basemap.png: a shaded relief of sine
hills over the sample ride's area (no real map data), as a GeoTIFF, cut into PNG MBTiles by GDAL.

Usage: /usr/bin/python3 scripts/synthetic-basemap.py OUT.mbtiles   (needs python3-gdal, gdal-bin)
Then:  waymark export Tracks/lakeside-ride.gpx --regions Regions --format png --basemap OUT.mbtiles -o PICTURE.png
"""
import os, sqlite3, subprocess, sys, tempfile

import numpy as np
from osgeo import gdal, osr

out = sys.argv[1]
width, height = 2400, 1800
west, north, east, south = 8.64, 47.39, 8.76, 47.32
y, x = np.mgrid[0:height, 0:width].astype(float)
relief = np.sin(x / 170) * np.cos(y / 230) * 60 + np.sin((x + y) / 410) * 90 + np.cos((x - 2 * y) / 530) * 40
slope_y, slope_x = np.gradient(relief)
shade = np.clip(0.78 + (-slope_x * 0.7 + slope_y * 0.7) / 3, 0.45, 1.1)  # lit from the north-west
green = np.clip((relief + 150) / 300, 0, 1)


def band(base, tint):
    return np.clip(base * shade + tint, 0, 255).astype(np.uint8)


with tempfile.TemporaryDirectory() as work:
    tiff = os.path.join(work, "relief.tif")
    raster = gdal.GetDriverByName("GTiff").Create(tiff, width, height, 3, gdal.GDT_Byte)
    raster.SetGeoTransform((west, (east - west) / width, 0, north, 0, -(north - south) / height))
    wgs84 = osr.SpatialReference()
    wgs84.ImportFromEPSG(4326)
    raster.SetProjection(wgs84.ExportToWkt())
    for index, values in enumerate((band(205 - 45 * green, 15), band(218 - 12 * green, 22), band(190 - 50 * green, 12)), 1):
        raster.GetRasterBand(index).WriteArray(values)
    raster = None
    subprocess.run(["gdal_translate", "-q", "-of", "MBTILES", "-co", "TILE_FORMAT=PNG", tiff, out], check=True)
db = sqlite3.connect(out)
db.execute("INSERT INTO metadata (name, value) VALUES ('attribution', 'Synthetic relief made with GDAL')")
db.commit()
