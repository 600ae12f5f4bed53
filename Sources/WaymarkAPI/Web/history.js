// History: a device's track over a time range (`GET /v1/history`), its significant changes,
// visits and transitions, its statistics and elevation profile as `waymark stats` and the export
// compute them (`GET /v1/export?format=stats`), and downloads through the export
// (`GET /v1/export?format=gpx|geojson|kml|png`). Opened, it shows the latest local day with data
// (`GET /v1/history/days` in the browser's zone) unless the user chose a range; a calendar marks
// the days with data, and the fixes can be drawn as a heat map instead of the track.

/* global L */
import * as api from "./api.js";
import { colours, fit } from "./map.js";
import { describeEvent, distance, duration, element, rfc3339, textContent, time } from "./format.js";
import { elevationProfile } from "./charts.js";
import { whyButton } from "./explain.js";
import { locateButton } from "./locate.js";
import { Calendar } from "./calendar.js";
import { HeatLayer } from "./heat.js";

/** `datetime-local` value (local time, seconds) ⇄ RFC 3339 UTC. */
function localValue(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The browser's IANA zone, the one the page shows local times in. */
function browserZone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** Local midnight starting `date` (`YYYY-MM-DD`) and the next day's, as `datetime-local` values. */
function dayRange(date) {
  const [year, month, day] = date.split("-").map(Number);
  return [localValue(new Date(year, month - 1, day)), localValue(new Date(year, month - 1, day + 1))];
}

export class HistoryView {
  constructor(map, parts) {
    this.map = map;
    this.parts = parts;
    this.layer = L.layerGroup();
    this.device = null;
    this.items = [];
    // Whether the user chose the range in this page session (typed it, pressed Show or picked a
    // day): then opening the view or changing the device keeps it.
    this.userRange = false;
    // The device whose days the calendar holds; null: to be asked again when next shown.
    this.daysOf = null;
    parts.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.userRange = true;
      this.show();
    });
    for (const input of [parts.from, parts.to]) input.addEventListener("input", () => { this.userRange = true; });
    this.calendar = parts.calendar ? new Calendar(parts.calendar, (date) => this.pickDay(date)) : null;
    this.heat = new HeatLayer();
    parts.heat?.addEventListener("change", () => this.draw(this.items, false));
    for (const link of parts.downloads.querySelectorAll("a[data-format]")) {
      link.href = "#";
      link.addEventListener("click", (event) => { event.preventDefault(); this.download(link.dataset.format); });
    }
  }

  /**
   * The device shown. Until the view is shown (which asks for the device's latest day with
   * data) the range is from its first to its last fix when known, else the last day.
   */
  select(device, first, last) {
    if (device !== this.device) this.daysOf = null;
    this.device = device;
    if (this.userRange) return;
    const to = last ? new Date(last) : new Date();
    const from = first ? new Date(first) : new Date(to.getTime() - 86_400_000);
    this.parts.from.value = localValue(from);
    this.parts.to.value = localValue(new Date(to.getTime() + 1000));
  }

  shown(visible) {
    if (visible) this.layer.addTo(this.map); else this.layer.remove();
    // Opened again: the days may have grown since.
    if (visible) this.daysOf = null;
  }

  /**
   * The device's days with data into the calendar; unless the user chose a range, the range
   * becomes the latest of them, local midnight to midnight.
   */
  async days() {
    const device = this.device;
    const answer = await api.get(`/v1/history/days?device=${encodeURIComponent(device)}&tz=${encodeURIComponent(browserZone())}`);
    if (device !== this.device) return;
    this.daysOf = device;
    this.calendar?.setDays(answer.days);
    const latest = answer.days.at(-1)?.date;
    if (!this.userRange && latest) [this.parts.from.value, this.parts.to.value] = dayRange(latest);
    this.calendar?.select(this.shownDay());
  }

  /** `YYYY-MM-DD` when the range is exactly one local day, else null. */
  shownDay() {
    // The inputs drop zero seconds (`…T00:00`): compared as times.
    const date = this.parts.from.value.slice(0, 10);
    const same = (a, b) => new Date(a).getTime() === new Date(b).getTime();
    const [from, to] = dayRange(date);
    return same(this.parts.from.value, from) && same(this.parts.to.value, to) ? date : null;
  }

  /** A day chosen in the calendar: its range, shown. */
  pickDay(date) {
    this.userRange = true;
    [this.parts.from.value, this.parts.to.value] = dayRange(date);
    this.show().catch((error) => { this.parts.summary.textContent = error.message; });
  }

  query() {
    const device = encodeURIComponent(this.device);
    return `device=${device}&from=${encodeURIComponent(rfc3339(this.parts.from.value))}&to=${encodeURIComponent(rfc3339(this.parts.to.value))}`;
  }

  async show() {
    const { summary, events } = this.parts;
    summary.textContent = "Loading…";
    // Without its days (a device the daemon does not know) the range stays as it is.
    if (this.daysOf !== this.device) await this.days().catch(() => this.calendar?.setDays([]));
    else this.calendar?.select(this.shownDay());
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
      for (const button of [locateButton(entry), whyButton(entry)]) if (button) item.append(" ", button);
      return item;
    }));
    this.parts.downloads.hidden = fixes.length === 0;
    await this.statistics(fixes.length > 0);
    this.parts.profile.hidden = !elevationProfile(this.parts.profileChart, fixes);
  }

  /** The track in segments (split at gaps), or the fixes as a heat map; events as markers. */
  draw(items, fitting = true) {
    this.items = items;
    this.layer.clearLayers();
    const fixes = items.filter((item) => item.kind === "fix").map((item) => [item.latitude, item.longitude]);
    const heat = this.parts.heat?.checked;
    if (heat) this.heat.setPoints(fixes).addTo(this.layer);
    let segment = [];
    const segments = [segment];
    for (const item of items) {
      if (item.kind === "gap") { segment = []; segments.push(segment); }
      else if (item.kind === "fix") segment.push([item.latitude, item.longitude]);
    }
    for (const points of heat ? [] : segments.filter((points) => points.length > 1)) {
      L.polyline(points, { color: colours.track, weight: 3 }).addTo(this.layer);
    }
    for (const item of items) {
      if (item.kind === "fix" || item.kind === "gap" || item.latitude == null) continue;
      L.circleMarker([item.latitude, item.longitude], { radius: 5, color: "#111", weight: 1, fillColor: "#facc15", fillOpacity: 1 })
        .bindTooltip(textContent(`${describeEvent(item)} · ${time(item.time)}`)).addTo(this.layer);
    }
    if (fitting) fit(this.map, L.latLngBounds(segments.flat()));
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
