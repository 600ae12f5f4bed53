// Live view: each device's position and accuracy circle moving with the stream, regions coloured
// by the selected device's state, and events listed as they happen.

/* global L */
import { colours } from "./map.js";
import { describeEvent, element, textContent, time } from "./format.js";
import { whyButton } from "./explain.js";

const maximumEvents = 200;

export class LiveView {
  constructor(map, { position, events }) {
    this.map = map;
    this.positionText = position;
    this.eventList = events;
    this.markers = new Map();  // device → { marker, circle }
    this.layer = L.layerGroup().addTo(map);
    this.device = null;
    this.centred = false;
  }

  /** The device whose position the panel describes (all devices' markers stay on the map). */
  select(device) {
    this.device = device;
    this.centred = false;
    const shown = this.markers.get(device);
    if (shown) this.describe(shown.last);
  }

  /** A fix from the stream or the latest known one. */
  fix(entry) {
    const device = entry.device ?? "local";
    const at = [entry.latitude, entry.longitude];
    const radius = entry.horizontalAccuracy ?? 0;
    let shown = this.markers.get(device);
    if (!shown) {
      const marker = L.circleMarker(at, {
        radius: 7, color: "#fff", weight: 2, fillColor: colours.device, fillOpacity: 1,
      }).bindTooltip(textContent(device));
      marker.getElement?.()?.setAttribute("data-device", device);
      const circle = L.circle(at, { radius, color: colours.device, weight: 1, fillOpacity: 0.1, interactive: false });
      shown = { marker, circle, last: entry };
      circle.addTo(this.layer);
      marker.addTo(this.layer);
      this.markers.set(device, shown);
    }
    shown.marker.setLatLng(at);
    shown.circle.setLatLng(at);
    shown.circle.setRadius(radius);
    shown.last = entry;
    if (device === this.device) {
      this.describe(entry);
      if (!this.centred) {
        this.map.setView(at, Math.max(this.map.getZoom(), 15));
        this.centred = true;
      }
    }
  }

  describe(entry) {
    const accuracy = entry.horizontalAccuracy != null ? ` ± ${Math.round(entry.horizontalAccuracy)} m` : "";
    this.positionText.textContent =
      `${entry.latitude.toFixed(5)}, ${entry.longitude.toFixed(5)}${accuracy} at ${time(entry.time)}`;
    this.positionText.dataset.latitude = entry.latitude;
    this.positionText.dataset.longitude = entry.longitude;
    this.positionText.classList.remove("muted");
  }

  /** Events from the history (oldest first), listed before any from the stream. */
  recent(entries, count = 20) {
    for (const entry of entries.slice(-count)) this.event(entry, "history");
  }

  /** An event from the stream (or the history), newest first. */
  event(entry, source = "stream") {
    const item = element("li", { "data-device": entry.device ?? "local", "data-kind": entry.kind },
      element("time", { datetime: entry.time, text: time(entry.time) }), " ",
      element("strong", { text: describeEvent(entry) }), " ",
      element("span", { class: "muted", text: entry.device ?? "local" }));
    item.dataset.source = source;
    const why = whyButton(entry);
    if (why) item.append(" ", why);
    if (entry.region) item.dataset.region = entry.region;
    if (entry.transition) item.dataset.transition = entry.transition;
    this.eventList.prepend(item);
    while (this.eventList.children.length > maximumEvents) this.eventList.lastElementChild.remove();
  }
}
