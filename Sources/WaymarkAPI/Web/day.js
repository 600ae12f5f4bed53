// Day: a device's stays and trips for one local day (`GET /v1/timeline`), listed beside the map
// with their place names and local times, trips drawn in their travel mode's colour, stays as
// named markers. Choosing a list entry shows it on the map.

/* global L */
import * as api from "./api.js";
import { fit } from "./map.js";
import { distance, duration, element, rfc3339, textContent } from "./format.js";

/** A colour per travel mode: the export's overlays' (`TravelMode.colour`, the Okabe–Ito palette,
 *  distinct for the common kinds of colour blindness); TimelineRouteTests keeps them equal. */
export const modeColours = {
  walking: "#009e73",
  running: "#e69f00",
  cycling: "#0072b2",
  driving: "#d55e00",
  train: "#cc79a7",
  flight: "#56b4e9",
  unknown: "#999999",
};
const stayColour = "#f59e0b";

/** `HH:MM` of a local RFC 3339 time (`2026-05-02T08:12:00+02:00`), with its date in front
 *  when that is not `day`. */
function localClock(local, day) {
  if (!local) return "…";
  const clock = local.slice(11, 16);
  return local.slice(0, 10) === day ? clock : `${local.slice(0, 10)} ${clock}`;
}

/** `YYYY-MM-DD` of a date in the browser's zone (the fallback when the device has no fix). */
function today() {
  const now = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export class DayView {
  constructor(map, parts) {
    this.map = map;
    this.parts = parts;
    this.layer = L.layerGroup();
    this.device = null;
    this.shapes = [];      // per entry: its Leaflet layer
    parts.form.addEventListener("submit", (event) => { event.preventDefault(); this.show(); });
    parts.legend.replaceChildren(...Object.entries(modeColours).map(([mode, colour]) => {
      const swatch = element("span", { class: "swatch", "aria-hidden": "true" });
      swatch.style.backgroundColor = colour;
      return element("li", { "data-mode": mode }, swatch, mode);
    }));
  }

  /** The device; its default day, the local day of its latest fix (`last`, RFC 3339), is
   *  worked out when the view is first shown. */
  select(device, last) {
    this.device = device;
    this.last = last;
    this.parts.date.value = "";
  }

  /** The device's local date at `last`: the date of the timeline's last entry around then. */
  async latestDay(last) {
    const end = new Date(new Date(last).getTime() + 1000);
    const start = new Date(end.getTime() - 3_600_000);
    try {
      const around = await api.get(`/v1/timeline?device=${encodeURIComponent(this.device)}&from=${rfc3339(start)}&to=${rfc3339(end)}`);
      const entry = around.entries.at(-1);
      const local = entry?.localDeparture ?? entry?.localEnd;
      if (local) return local.slice(0, 10);
    } catch (error) {
      if (error instanceof api.Unauthorized) throw error;
    }
    return last.slice(0, 10);
  }

  shown(visible) {
    if (visible) this.layer.addTo(this.map); else this.layer.remove();
  }

  async show() {
    const { summary, list, date, fleet } = this.parts;
    if (!this.device) return;
    if (fleet) {
      // `GET /v1/timeline` is single daemon only (docs/fleet.md): said without asking.
      summary.textContent = "A fleet keeps no timeline: a single daemon's store holds the stays and trips.";
      summary.dataset.fleet = "yes";
      return;
    }
    if (!date.value) date.value = this.last ? await this.latestDay(this.last) : today();
    summary.textContent = "Loading…";
    summary.classList.add("muted");
    delete summary.dataset.entries;
    let timeline;
    try {
      timeline = await api.get(`/v1/timeline?device=${encodeURIComponent(this.device)}&day=${encodeURIComponent(date.value)}`);
    } catch (error) {
      if (error instanceof api.Unauthorized) throw error;
      summary.textContent = error.message;
      summary.classList.replace("muted", "error");
      list.replaceChildren();
      this.layer.clearLayers();
      return;
    }
    summary.classList.remove("error");
    const day = date.value;
    const stays = timeline.entries.filter((entry) => entry.kind === "stay").length;
    const trips = timeline.entries.length - stays;
    summary.textContent = timeline.entries.length
      ? `${stays} stay${stays === 1 ? "" : "s"}, ${trips} trip${trips === 1 ? "" : "s"} · times in ${timeline.timeZone}`
      : `Nothing recorded on ${day}.`;
    summary.dataset.entries = timeline.entries.length;
    summary.dataset.timeZone = timeline.timeZone;
    this.draw(timeline);
    list.replaceChildren(...timeline.entries.map((entry, index) =>
      this.item(entry, index, day, timeline.open && index === timeline.entries.length - 1)));
  }

  /** One list entry: a button that shows the stay or trip on the map. */
  item(entry, index, day, open) {
    const stay = entry.kind === "stay";
    const start = stay ? entry.localArrival : entry.localStart;
    const end = stay ? entry.localDeparture : entry.localEnd;
    const seconds = (Date.parse(stay ? entry.departure : entry.end) - Date.parse(stay ? entry.arrival : entry.start)) / 1000;
    const times = element("span", { class: "when" },
      element("time", { datetime: start, text: localClock(start, day) }), "–",
      element("time", { datetime: end, text: localClock(end, day) }), open ? " so far" : "");
    const button = element("button", { type: "button", class: "entry" }, times, " ");
    if (stay) {
      button.append(element("strong", { class: "place", text: entry.place.label }), element("span", { class: "muted", text: ` · ${duration(seconds)}` }));
    } else {
      const swatch = element("span", { class: "swatch", "aria-hidden": "true" });
      swatch.style.backgroundColor = modeColours[entry.mode] ?? modeColours.unknown;
      button.append(swatch, element("strong", { text: `${entry.mode} ${distance(entry.distance)}` }),
        element("span", { class: "muted", text: ` · ${duration(entry.duration ?? seconds)} · ${entry.from.label} → ${entry.to.label}` }));
    }
    button.addEventListener("click", () => this.focus(index));
    const item = element("li", { "data-kind": entry.kind, "data-index": index }, button);
    if (stay) item.dataset.place = entry.place.label;
    else item.dataset.mode = entry.mode;
    item.dataset.start = start ?? "";
    item.dataset.end = end ?? "";
    if (open) item.dataset.open = "true";
    return item;
  }

  /** Trips as lines in their mode's colour, stays as markers named with a tooltip. */
  draw(timeline) {
    this.layer.clearLayers();
    this.shapes = timeline.entries.map((entry) => {
      if (entry.kind === "stay") {
        const marker = L.circleMarker([entry.latitude, entry.longitude], {
          radius: 7, color: "#111", weight: 1, fillColor: stayColour, fillOpacity: 1,
        }).bindTooltip(textContent(entry.place.label), { permanent: true, direction: "right", className: "stay-name" });
        marker.on("add", () => marker.getElement()?.setAttribute("data-stay", entry.place.label));
        return marker.addTo(this.layer);
      }
      const line = L.polyline(entry.path.map(([longitude, latitude]) => [latitude, longitude]), {
        color: modeColours[entry.mode] ?? modeColours.unknown, weight: 4, opacity: 0.9,
      }).bindTooltip(textContent(`${entry.mode} ${distance(entry.distance)}`));
      line.on("add", () => {
        line.getElement()?.setAttribute("data-trip", entry.mode);
      });
      return line.addTo(this.layer);
    });
    const bounds = L.latLngBounds([]);
    for (const shape of this.shapes) bounds.extend(shape.getBounds ? shape.getBounds() : shape.getLatLng());
    fit(this.map, bounds);
  }

  /** Shows entry `index` on the map: a trip fitted and drawn on top, a stay centred with its name. */
  focus(index) {
    const shape = this.shapes[index];
    if (!shape) return;
    for (const item of this.parts.list.children) {
      if (Number(item.dataset.index) === index) item.setAttribute("aria-current", "true");
      else item.removeAttribute("aria-current");
    }
    for (const other of this.shapes) if (other.setStyle && other.getBounds) other.setStyle({ weight: 4 });
    if (shape.getBounds) {
      shape.setStyle({ weight: 7 });
      shape.bringToFront();
      fit(this.map, shape.getBounds());
    } else {
      this.map.setView(shape.getLatLng(), Math.max(this.map.getZoom(), 16));
    }
    shape.openTooltip();
  }
}
