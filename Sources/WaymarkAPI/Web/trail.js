// A device's trail on the live map: its fixes of the last N minutes before its own latest fix
// (not the clock: a replay or an imported phone has old times), drawn as a few lines in the
// device's colour that fade with age, broken where the device was silent. Filled from
// `GET /v1/fixes` when shown, then extended by the stream; older points are dropped.

/* global L */
import * as api from "./api.js";
import { rfc3339 } from "./format.js";

/** Age bands, newest first: each band's line opacity. */
const bandOpacities = [0.95, 0.75, 0.55, 0.38, 0.22];
/** Longer than this between two fixes, the trail breaks rather than join them. */
const gapMilliseconds = 3 * 60_000;
/** At most this many points per device, whatever the window (a fix a second for an hour). */
const maximumPoints = 4000;

/** One device's trail, drawn into `layer` (the device's own layer group) in `pane`. */
export class Trail {
  constructor(layer, device, { colour, minutes, pane }) {
    this.layer = layer;
    this.device = device;
    this.colour = colour;
    this.minutes = minutes;
    this.points = [];  // { t, at: [latitude, longitude] }, oldest first
    this.fetched = null;  // the window (minutes) last filled from the API
    this.frame = null;
    this.bands = bandOpacities.map((opacity) => {
      const line = L.polyline([], { pane, className: "trail", color: colour, weight: 4, opacity, interactive: false, lineCap: "round" });
      line.on("add", () => this.tag(line));
      return line;
    });
  }

  /** The latest fix time (milliseconds), or null. */
  get latest() {
    return this.points.length ? this.points[this.points.length - 1].t : null;
  }

  /** A fix from the stream. */
  add(fix) {
    this.insert({ t: Date.parse(fix.time), at: [fix.latitude, fix.longitude] });
    this.trim();
    this.schedule();
  }

  insert(point) {
    const points = this.points;
    if (!Number.isFinite(point.t)) return;
    if (!points.length || point.t > points[points.length - 1].t) { points.push(point); return; }
    let index = points.length;
    while (index > 0 && points[index - 1].t > point.t) index--;
    if (points[index - 1]?.t !== point.t) points.splice(index, 0, point);
  }

  /** Drops points older than the window before the latest, and any beyond the bound. */
  trim() {
    const latest = this.latest;
    if (latest == null) return;
    const oldest = latest - this.minutes * 60_000;
    let drop = 0;
    while (drop < this.points.length && this.points[drop].t < oldest) drop++;
    drop = Math.max(drop, this.points.length - maximumPoints);
    if (drop > 0) this.points.splice(0, drop);
  }

  /**
   * Fills the window before the device's latest fix (`latestTime`, RFC 3339) from the API, unless
   * it was filled for this window already; fixes the stream brought meanwhile are kept.
   */
  async backfill(latestTime) {
    const end = Date.parse(latestTime ?? "") || this.latest;
    if (end == null || this.fetched != null) return;
    const minutes = this.minutes;
    const from = rfc3339(end - minutes * 60_000), to = rfc3339(end + 1000);
    const answer = await api.get(`/v1/fixes?device=${encodeURIComponent(this.device)}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&limit=${maximumPoints}`);
    for (const fix of answer.items) this.insert({ t: Date.parse(fix.time), at: [fix.latitude, fix.longitude] });
    if (this.minutes === minutes) this.fetched = minutes;  // else a longer window is being filled
    this.trim();
    this.schedule();
  }

  /** Where the device was `milliseconds` before its latest fix (or the oldest point held since), or null. */
  before(milliseconds) {
    const since = this.latest - milliseconds;
    for (let index = this.points.length - 2; index >= 0; index--) if (this.points[index].t <= since) return this.points[index].at;
    return this.points.length > 1 ? this.points[0].at : null;
  }

  /** Where the trail lies, for fitting the map to it. */
  bounds() {
    return L.latLngBounds(this.points.map((point) => point.at));
  }

  /** A new window length: drawn at once from what is held, filled by `backfill()` if longer. */
  setMinutes(minutes) {
    // A shorter window trims what is held, so it is all that is held afterwards.
    this.fetched = this.fetched != null && minutes <= this.fetched ? minutes : null;
    this.minutes = minutes;
    this.trim();
    this.schedule();
  }

  setColour(colour) {
    this.colour = colour;
    for (const line of this.bands) line.setStyle({ color: colour });
  }

  /** Redraws once per frame however many fixes came. */
  schedule() {
    if (this.frame != null) return;
    this.frame = requestAnimationFrame(() => { this.frame = null; this.draw(); });
  }

  /** Each age band as one line of several runs; a run breaks at a gap or where the band ends. */
  draw() {
    const latest = this.latest;
    const span = (this.minutes * 60_000) / this.bands.length;
    const runs = this.bands.map(() => []);
    const times = this.bands.map(() => [Infinity, -Infinity]);
    for (let index = 1; index < this.points.length; index++) {
      const before = this.points[index - 1], after = this.points[index];
      if (after.t - before.t > gapMilliseconds) continue;
      const band = Math.min(this.bands.length - 1, Math.floor((latest - after.t) / span));
      const bandRuns = runs[band];
      const last = bandRuns[bandRuns.length - 1];
      if (last && last.end === index - 1) { last.points.push(after.at); last.end = index; }
      else bandRuns.push({ points: [before.at, after.at], end: index });
      times[band] = [Math.min(times[band][0], before.t), Math.max(times[band][1], after.t)];
    }
    let added = false;
    this.bands.forEach((line, band) => {
      const lines = runs[band].map((run) => run.points);
      line.setLatLngs(lines);
      line.range = lines.length ? times[band] : null;
      if (lines.length && !this.layer.hasLayer(line)) { this.layer.addLayer(line); added = true; }
      else if (!lines.length && this.layer.hasLayer(line)) this.layer.removeLayer(line);
      else if (lines.length) this.tag(line);
    });
    // Newer bands over older ones.
    if (added) for (let band = this.bands.length - 1; band >= 0; band--) if (this.layer.hasLayer(this.bands[band])) this.bands[band].bringToFront();
  }

  /** The band's path: its device, and the times it spans. */
  tag(line) {
    const path = line.getElement?.();
    if (!path) return;
    path.setAttribute("data-device", this.device);
    if (line.range) {
      path.setAttribute("data-from", new Date(line.range[0]).toISOString());
      path.setAttribute("data-to", new Date(line.range[1]).toISOString());
    }
  }
}
