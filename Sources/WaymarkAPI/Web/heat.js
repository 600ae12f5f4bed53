// A heat map of a history range's fixes: a Leaflet grid layer whose tiles are canvases. For each
// zoom the fixes are put once into the tiles' pixels (a count per pixel); a tile then adds a
// Gaussian kernel, wider as the map zooms in, around each counted pixel of itself and of its
// neighbours, and colours the density on a logarithmic scale with a perceptual ramp (dark
// violet → red → yellow), transparent where there are no fixes.

/* global L */

const TILE = 256;

/** Control points of the colour ramp (position 0–1, red, green, blue), after matplotlib's "inferno". */
const RAMP = [
  [0.0, 40, 11, 84], [0.2, 101, 21, 110], [0.4, 159, 42, 99], [0.6, 212, 72, 66],
  [0.8, 245, 125, 21], [0.9, 250, 175, 12], [1.0, 252, 255, 164],
];

/** 256 RGBA entries: the ramp, its opacity rising from nearly clear to 0.9. */
const PALETTE = (() => {
  const palette = new Uint8ClampedArray(256 * 4);
  for (let i = 0; i < 256; i++) {
    const t = i / 255;
    const upper = RAMP.findIndex(([at]) => at >= t);
    const [a, b] = upper <= 0 ? [RAMP[0], RAMP[0]] : [RAMP[upper - 1], RAMP[upper]];
    const f = b[0] === a[0] ? 0 : (t - a[0]) / (b[0] - a[0]);
    for (let c = 1; c <= 3; c++) palette[i * 4 + c - 1] = a[c] + f * (b[c] - a[c]);
    palette[i * 4 + 3] = 255 * Math.min(0.9, 0.25 + 1.5 * t);
  }
  return palette;
})();

/** The kernel's radius in pixels at `zoom`: √2 times wider a zoom level in (less on the ground), 5–28 px. */
function radius(zoom) {
  return Math.round(Math.min(28, Math.max(5, 3 * 2 ** ((zoom - 12) / 2))));
}

/** A (2r+1)² Gaussian kernel, σ = r/2.5, its centre 1. */
function kernel(r) {
  const size = 2 * r + 1;
  const weights = new Float32Array(size * size);
  const sigma = r / 2.5;
  for (let y = -r; y <= r; y++) {
    for (let x = -r; x <= r; x++) {
      const d2 = x * x + y * y;
      weights[(y + r) * size + x + r] = d2 > r * r ? 0 : Math.exp(-d2 / (2 * sigma * sigma));
    }
  }
  return weights;
}

export const HeatLayer = L.GridLayer.extend({
  // Above a basemap's tiles, in the same pane.
  options: { className: "heat-layer", tileSize: TILE, updateWhenZooming: false, zIndex: 10 },

  initialize(options) {
    L.GridLayer.prototype.initialize.call(this, options);
    this.points = new Float64Array(0);
    this.zooms = new Map();
  },

  /** The fixes to draw (`[[latitude, longitude], …]`), projected once to the world at zoom 0. */
  setPoints(latlngs) {
    const crs = L.CRS.EPSG3857;
    this.points = new Float64Array(latlngs.length * 2);
    latlngs.forEach((latlng, i) => {
      const point = crs.latLngToPoint(L.latLng(latlng[0], latlng[1]), 0);
      this.points[2 * i] = point.x;
      this.points[2 * i + 1] = point.y;
    });
    this.zooms.clear();
    if (this._map) this.redraw();
    return this;
  },

  /**
   * The fixes at `zoom`, once: per tile (`"x:y"`), its pixels with fixes as [pixel index,
   * count, …]; and the densest neighbourhood, which is the top of the colour scale.
   */
  index(zoom) {
    let entry = this.zooms.get(zoom);
    if (entry) return entry;
    const scale = 2 ** zoom;
    const counts = new Map();
    for (let i = 0; i < this.points.length; i += 2) {
      const x = Math.floor(this.points[i] * scale);
      const y = Math.floor(this.points[i + 1] * scale);
      const key = `${Math.floor(x / TILE)}:${Math.floor(y / TILE)}`;
      let pixels = counts.get(key);
      if (!pixels) counts.set(key, (pixels = new Map()));
      const pixel = (y & (TILE - 1)) * TILE + (x & (TILE - 1));
      pixels.set(pixel, (pixels.get(pixel) ?? 0) + 1);
    }
    const r = radius(zoom);
    // The scale's top: the most fixes in a block of about the kernel's core (σ wide).
    const block = Math.max(1, Math.round(r / 2.5));
    let top = 1;
    const tiles = new Map();
    for (const [key, pixels] of counts) {
      const blocks = new Map();
      const flat = new Float64Array(pixels.size * 2);
      let i = 0;
      for (const [pixel, count] of pixels) {
        flat[i++] = pixel;
        flat[i++] = count;
        const b = Math.floor((pixel >> 8) / block) * 1024 + Math.floor((pixel & (TILE - 1)) / block);
        const sum = (blocks.get(b) ?? 0) + count;
        blocks.set(b, sum);
        if (sum > top) top = sum;
      }
      tiles.set(key, flat);
    }
    entry = { tiles, r, kernel: kernel(r), top: Math.log1p(top) };
    this.zooms.set(zoom, entry);
    return entry;
  },

  createTile(coords) {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = TILE;
    const { tiles, r, kernel: weights, top } = this.index(coords.z);
    const size = 2 * r + 1;
    const density = new Float32Array(TILE * TILE);
    let any = false;
    // The tile's own fixes and those of its eight neighbours within the kernel's reach.
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const pixels = tiles.get(`${coords.x + dx}:${coords.y + dy}`);
        if (!pixels) continue;
        for (let i = 0; i < pixels.length; i += 2) {
          const cx = (pixels[i] & (TILE - 1)) + dx * TILE;
          const cy = (pixels[i] >> 8) + dy * TILE;
          if (cx < -r || cy < -r || cx >= TILE + r || cy >= TILE + r) continue;
          any = true;
          const count = pixels[i + 1];
          const x0 = Math.max(0, cx - r), x1 = Math.min(TILE - 1, cx + r);
          const y0 = Math.max(0, cy - r), y1 = Math.min(TILE - 1, cy + r);
          for (let y = y0; y <= y1; y++) {
            const row = (y - cy + r) * size - cx + r;
            const out = y * TILE;
            for (let x = x0; x <= x1; x++) density[out + x] += count * weights[row + x];
          }
        }
      }
    }
    if (!any) return canvas;
    const context = canvas.getContext("2d");
    const image = context.createImageData(TILE, TILE);
    for (let p = 0; p < density.length; p++) {
      const value = density[p];
      if (value < 0.05) continue;
      const level = Math.min(255, Math.round((255 * Math.log1p(value)) / top)) * 4;
      image.data.set(PALETTE.subarray(level, level + 4), p * 4);
    }
    context.putImageData(image, 0, 0);
    return canvas;
  },
});
