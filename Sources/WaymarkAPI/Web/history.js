// History: a device's track over a time range (`GET /v1/history`), its significant changes,
// visits and transitions, its statistics and elevation profile as `waymark stats` and the export
// compute them (`GET /v1/export?format=stats`), and downloads through the export
// (`GET /v1/export?format=gpx|geojson|kml|png`).

/* global L */
import * as api from "./api.js";
import { colours, fit } from "./map.js";
import { describeEvent, distance, duration, element, textContent, time } from "./format.js";
import { elevationProfile } from "./charts.js";
import { whyButton } from "./explain.js";

/** `datetime-local` value (local time, seconds) ⇄ RFC 3339 UTC. */
function localValue(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
function rfc3339(value) { return new Date(value).toISOString().replace(/\.\d{3}Z$/, "Z"); }

export class HistoryView {
  constructor(map, parts) {
    this.map = map;
    this.parts = parts;
    this.layer = L.layerGroup();
    this.device = null;
    parts.form.addEventListener("submit", (event) => { event.preventDefault(); this.show(); });
    for (const link of parts.downloads.querySelectorAll("a[data-format]")) {
      link.href = "#";
      link.addEventListener("click", (event) => { event.preventDefault(); this.download(link.dataset.format); });
    }
  }

  /** The range: from the device's first to its last fix when known, else the last day. */
  select(device, first, last) {
    this.device = device;
    const to = last ? new Date(last) : new Date();
    const from = first ? new Date(first) : new Date(to.getTime() - 86_400_000);
    this.parts.from.value = localValue(from);
    this.parts.to.value = localValue(new Date(to.getTime() + 1000));
  }

  shown(visible) {
    if (visible) this.layer.addTo(this.map); else this.layer.remove();
  }

  query() {
    const device = encodeURIComponent(this.device);
    return `device=${device}&from=${encodeURIComponent(rfc3339(this.parts.from.value))}&to=${encodeURIComponent(rfc3339(this.parts.to.value))}`;
  }

  async show() {
    const { summary, events } = this.parts;
    summary.textContent = "Loading…";
    const history = await api.get(`/v1/history?${this.query()}`);
    const fixes = history.items.filter((item) => item.kind === "fix");
    const eventItems = history.items.filter((item) => item.kind !== "fix" && item.kind !== "gap");
    const gaps = history.items.filter((item) => item.kind === "gap").length;
    this.draw(history.items);
    summary.textContent = `${fixes.length} points, ${eventItems.length} events, ${gaps} gaps`;
    summary.dataset.points = fixes.length;
    summary.dataset.events = eventItems.length;
    summary.classList.remove("muted");
    events.replaceChildren(...eventItems.map((entry) => {
      const item = element("li", { "data-kind": entry.kind },
        element("time", { datetime: entry.time, text: time(entry.time) }), " ", element("strong", { text: describeEvent(entry) }));
      const why = whyButton(entry);
      if (why) item.append(" ", why);
      return item;
    }));
    this.parts.downloads.hidden = fixes.length === 0;
    await this.statistics(fixes.length > 0);
    this.parts.profile.hidden = !elevationProfile(this.parts.profileChart, fixes);
  }

  /** The track in segments (split at gaps), events as markers. */
  draw(items) {
    this.layer.clearLayers();
    let segment = [];
    const segments = [segment];
    for (const item of items) {
      if (item.kind === "gap") { segment = []; segments.push(segment); }
      else if (item.kind === "fix") segment.push([item.latitude, item.longitude]);
    }
    for (const points of segments.filter((points) => points.length > 1)) {
      L.polyline(points, { color: colours.track, weight: 3 }).addTo(this.layer);
    }
    for (const item of items) {
      if (item.kind === "fix" || item.kind === "gap" || item.latitude == null) continue;
      L.circleMarker([item.latitude, item.longitude], { radius: 5, color: "#111", weight: 1, fillColor: "#facc15", fillOpacity: 1 })
        .bindTooltip(textContent(`${describeEvent(item)} · ${time(item.time)}`)).addTo(this.layer);
    }
    const bounds = L.latLngBounds(segments.flat());
    fit(this.map, bounds);
  }

  async statistics(any) {
    const list = this.parts.stats;
    list.replaceChildren();
    if (!any) return;
    const s = await api.get(`/v1/export?format=stats&${this.query()}`);
    const rows = [
      ["distance", distance(s.distance ?? 0)],
      ["elapsed time", duration(s.elapsedTime)],
      ["moving time", duration(s.movingTime)],
      ["elevation gain", s.elevationGain != null ? `+${Math.round(s.elevationGain)} m` : "—"],
      ["elevation loss", s.elevationLoss != null ? `-${Math.round(s.elevationLoss)} m` : "—"],
      ["elevation", s.minimumElevation != null ? `${Math.round(s.minimumElevation)}–${Math.round(s.maximumElevation)} m` : "—"],
      ["max speed", s.maximumSpeed != null ? `${(s.maximumSpeed * 3.6).toFixed(1)} km/h` : "—"],
      ["average speed", s.averageMovingSpeed != null ? `${(s.averageMovingSpeed * 3.6).toFixed(1)} km/h (moving)` : "—"],
      ["points", `${s.points} in ${s.segments} segment${s.segments === 1 ? "" : "s"}`],
    ];
    for (const [name, value] of rows) list.append(element("dt", { text: name }), element("dd", { text: value }));
  }

  async download(format) {
    const blob = await api.download(`/v1/export?format=${format}&${this.query()}`);
    const link = element("a", { href: URL.createObjectURL(blob), download: `${this.device}.${format}` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  }
}
