// Regions: drawn on the map at their true size in the selected device's state (a circle as the
// geodesic polygon at its radius, polygons as they are; iBeacon regions have no area and are only
// listed), listed with that state and since when, imported from a dropped or chosen GeoJSON file,
// removed. A device's state is its latest enter or exit in the history (`GET /v1/events`), kept
// current by the stream's events.

/* global L */
import * as api from "./api.js";
import { fit, regionStyle } from "./map.js";
import { circlePolygon } from "./geodesic.js";
import { element, naturally, textContent, time } from "./format.js";

/** Region identifiers in natural order: c3 before c11. */

export class RegionsView {
  constructor(map, { rows, drop, file, result }) {
    this.map = map;
    this.rows = rows;
    this.result = result;
    // A circle (a Point with `radius` in metres) as the polygon of points at that distance, not
    // simplified (Leaflet's default smoothing would cut it to a visible polygon when zoomed in).
    const circle = (feature, at) =>
      L.polygon(circlePolygon(at.lat, at.lng, Number(feature.properties?.radius) || 0), { smoothFactor: 0 });
    this.layer = L.geoJSON(null, { style: () => regionStyle("unknown"), pointToLayer: circle }).addTo(map);
    this.byId = new Map();     // identifier → Leaflet layer
    this.beacons = new Set();  // identifiers of iBeacon regions (no geometry)
    this.states = new Map();   // "device\tregion" → { state, since }
    this.device = null;
    this.deviceHasFixes = false;
    drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", (event) => {
      event.preventDefault();
      drop.classList.remove("over");
      const dropped = event.dataTransfer?.files?.[0];
      if (dropped) this.import(dropped);
    });
    // The drop zone is a button: a click outside the "choose one" label, Enter or Space open the
    // file chooser (the input itself is out of the tab order).
    drop.addEventListener("click", (event) => { if (!event.target.closest("label")) file.click(); });
    drop.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      file.click();
    });
    file.addEventListener("change", () => { if (file.files[0]) this.import(file.files[0]); file.value = ""; });
  }

  /** Every region, as GeoJSON, onto the map. */
  async load() {
    const collection = await api.get("/v1/regions?format=geojson");
    this.layer.clearLayers();
    this.byId.clear();
    this.beacons.clear();
    const features = collection.features ?? [];
    for (const feature of features) if (!feature.geometry && feature.id != null) this.beacons.add(String(feature.id));
    this.layer.addData({ type: "FeatureCollection", features: features.filter((feature) => feature.geometry) });
    this.layer.eachLayer((layer) => {
      const id = layer.feature?.id ?? layer.feature?.properties?.identifier;
      if (id == null) return;
      this.byId.set(String(id), layer);
      const name = layer.feature.properties?.name;
      layer.bindTooltip(textContent(name && name !== String(id) ? `${id} · ${name}` : id));
      // Touch has no hover: a tap (or a click) shows the name where it landed.
      layer.on("click", (event) => layer.openTooltip(event.latlng));
      layer.getElement?.()?.setAttribute("data-region", String(id));
    });
    this.restyle();
    this.list();
    return this.layer.getBounds();
  }

  /** The device whose state colours the regions: its history's latest transitions. Returns
   *  the device's events, oldest first. */
  async select(device, hasFixes) {
    this.device = device;
    this.deviceHasFixes = hasFixes;
    const events = await api.get(`/v1/events?device=${encodeURIComponent(device)}`);
    for (const entry of events.items) this.transition(entry, false);
    this.restyle();
    this.list();
    return events.items;
  }

  /** An enter or exit (from the history or the stream). */
  transition(entry, redraw = true) {
    if (!entry.region || !entry.transition || (entry.transition !== "enter" && entry.transition !== "exit")) return;
    this.states.set(`${entry.device ?? "local"}\t${entry.region}`, {
      state: entry.transition === "enter" ? "inside" : "outside",
      since: entry.time,
    });
    if (redraw && (entry.device ?? "local") === this.device) {
      this.restyle();
      this.list();
    }
  }

  stateOf(region) {
    return this.states.get(`${this.device}\t${region}`) ?? { state: this.deviceHasFixes ? "outside" : "unknown", since: null };
  }

  restyle() {
    for (const [id, layer] of this.byId) {
      const { state } = this.stateOf(id);
      layer.setStyle?.(regionStyle(state));
      const path = layer.getElement?.();
      if (path) { path.setAttribute("data-region", id); path.setAttribute("data-state", state); }
    }
  }

  list() {
    this.rows.replaceChildren(...[...this.byId.keys(), ...this.beacons].sort(naturally).map((id) => {
      const { state, since } = this.stateOf(id);
      const layer = this.byId.get(id);
      let show;
      if (layer) {
        show = element("button", { type: "button", class: "link", text: id, "aria-label": `Show region ${id}` });
        show.addEventListener("click", () => fit(this.map, layer.getBounds()));
      } else {
        show = element("span", { text: id }, " ", element("span", { class: "muted", text: "(iBeacon, no area to draw)" }));
      }
      const remove = element("button", { type: "button", class: "danger", text: "Remove", "aria-label": `Remove region ${id}` });
      remove.addEventListener("click", () => this.remove(id));
      return element("tr", { "data-region": id, "data-state": state },
        element("td", {}, show), element("td", { text: state }), element("td", { text: time(since) }), element("td", {}, remove));
    }));
  }

  async import(file) {
    this.result.className = "";
    try {
      const report = await api.send("POST", "/v1/regions?replace=true", await file.text(), "application/geo+json");
      const inserted = report.inserted?.length ?? 0, replaced = report.replaced?.length ?? 0;
      this.result.textContent = `${file.name}: ${inserted} added, ${replaced} replaced.`;
      await this.load();
    } catch (error) {
      this.result.className = "error";
      this.result.textContent = `${file.name}: ${error.message}`;
    }
  }

  async remove(id) {
    if (!confirm(`Remove region ${id}?`)) return;
    try {
      await api.send("DELETE", `/v1/regions/${encodeURIComponent(id)}`);
      await this.load();
    } catch (error) {
      this.result.className = "error";
      this.result.textContent = `${id}: ${error.message}`;
    }
  }
}
