// Live view: each device's marker, accuracy circle and fading trail in its own colour, moving
// with the stream; the map following the selected device (or, with all devices, the one that
// moved last); "Fit everything"; events listed as they happen, each shown on the map on request.

/* global L */
import { fit } from "./map.js";
import { describeEvent, element, textContent, time } from "./format.js";
import { whyButton } from "./explain.js";
import { DeviceList } from "./devices.js";
import { Trail } from "./trail.js";
import { locateButton, onLocate } from "./locate.js";

const maximumEvents = 200;
/** Following pans once the marker leaves this middle share of the map's width and height. */
const innerShare = 0.7;
/** The zoom a followed device or a located event is shown at, at least. */
const closeZoom = 15;
/** With all devices, follow switches to another mover once the followed one was still this long. */
const switchAfterMilliseconds = 10_000;
/** A pan leaves the followed device this share of the map's half-size behind the centre, along
 *  its heading over the last few seconds. */
const lead = 0.4;
const headingMilliseconds = 5000;

export class LiveView {
  /**
   * `parts`: the panel's `position` text and `events` list, the `follow` and `fitAll` buttons,
   * the `trailMinutes` select, the device `legend` list; `regionBounds()` the regions' extent;
   * `onSelect(device)` when a device is chosen in the legend; `report(error)` for a failed request.
   */
  constructor(map, { position, events, follow, fitAll, trailMinutes, legend, regionBounds, onSelect, report }) {
    this.map = map;
    this.positionText = position;
    this.eventList = events;
    this.followButton = follow;
    this.trailMinutes = trailMinutes;
    this.regionBounds = regionBounds;
    this.report = report;
    this.devices = new DeviceList(legend, onSelect);
    this.shown = new Map();  // device → { group, marker, circle, trail, last, movedAt }
    this.device = null;      // the selection: a device's name, or "*" for all
    this.focus = null;       // the one device the position text (and the regions) describe
    this.mover = null;       // with all devices, the one followed
    this.following = follow.getAttribute("aria-pressed") !== "false";
    this.centred = false;
    this.visible = true;
    this.programmatic = 0;   // moves of the map this view is making
    this.acting = false;     // inside such a move's Leaflet call
    this.behind = null;      // the followed device, when fixes came during a pan
    for (const [name, zIndex] of [["liveTrails", 410], ["liveDevices", 420], ["eventFocus", 430]]) {
      map.createPane(name).style.zIndex = String(zIndex);
    }
    follow.addEventListener("click", () => this.setFollow(!this.following));
    fitAll.addEventListener("click", () => this.fitEverything());
    trailMinutes.addEventListener("change", () => this.setTrailMinutes());
    // A drag, a zoom or a keyboard pan by the user ends following; the view's own moves do not.
    map.on("dragstart", () => { if (this.visible) this.setFollow(false); });
    map.on("zoomstart movestart", () => { if (this.visible && !this.programmatic && !this.acting) this.setFollow(false); });
    onLocate((entry) => this.locate(entry));
  }

  /** Every known device (with or without a fix), for the colours and the list. */
  listDevices(names) {
    if (this.devices.set(names)) this.recolour();
  }

  /**
   * The selection: `device` is a name or "*" (all devices); `focus` the one device the position
   * text describes (with "*", the one with the latest fix).
   */
  select(device, focus) {
    this.device = device;
    this.focus = focus;
    this.mover = focus;
    this.centred = false;
    this.behind = null;
    this.devices.select(device);
    for (const [name, shown] of this.shown) this.display(name, shown);
    const last = this.shown.get(focus)?.last;
    if (last) this.describe(last);
    else {
      this.positionText.textContent = "No fix yet.";
      this.positionText.classList.add("muted");
    }
    this.backfill();
    this.keepInView(this.target());
  }

  /** Whether the Live tab is shown: following acts only then (other views fit the map themselves). */
  setVisible(visible) {
    this.visible = visible;
    if (visible) this.keepInView(this.target());
  }

  /** A fix from the stream or the latest known one. */
  fix(entry) {
    const device = entry.device ?? "local";
    const at = [entry.latitude, entry.longitude];
    const fresh = !this.shown.has(device);
    const shown = fresh ? this.add(device, at) : this.shown.get(device);
    const moved = !shown.last || this.map.distance(at, [shown.last.latitude, shown.last.longitude]) > 2;
    shown.marker.setLatLng(at);
    shown.circle.setLatLng(at);
    shown.circle.setRadius(entry.horizontalAccuracy ?? 0);
    shown.last = entry;
    shown.trail.add(entry);
    if (fresh && this.device != null && this.isShown(device)) shown.trail.backfill(entry.time).catch(this.report);
    this.devices.seen(device, entry.time);
    if (moved && this.device != null) this.moved(device, shown);  // not the fixes known at load
    if (device === this.focus) this.describe(entry);
    if (device === this.target()) this.keepInView(device);
  }

  add(device, at) {
    this.listDevices([device]);  // one the stream brought first
    const colour = this.devices.colour(device);
    const group = L.layerGroup();
    const circle = L.circle(at, { pane: "liveDevices", radius: 0, color: colour, weight: 1, fillColor: colour, fillOpacity: 0.1, interactive: false });
    const marker = L.circleMarker(at, {
      pane: "liveDevices", className: "device-marker", radius: 8, color: "#fff", weight: 2.5, fillColor: colour, fillOpacity: 1,
    }).bindTooltip(textContent(device));
    marker.on("add", () => marker.getElement()?.setAttribute("data-device", device));
    const trail = new Trail(group, device, { colour, minutes: this.minutes(), pane: "liveTrails" });
    group.addLayer(circle).addLayer(marker);
    const shown = { group, marker, circle, trail, last: null, movedAt: 0 };
    this.shown.set(device, shown);
    this.display(device, shown);
    return shown;
  }

  isShown(device) {
    return this.device == null || this.device === "*" || this.device === device;
  }

  display(device, { group }) {
    if (this.isShown(device)) group.addTo(this.map);
    else group.remove();
  }

  recolour() {
    for (const [device, { marker, circle, trail }] of this.shown) {
      const colour = this.devices.colour(device);
      marker.setStyle({ fillColor: colour });
      circle.setStyle({ color: colour, fillColor: colour });
      trail.setColour(colour);
    }
  }

  /** The device being followed: the selected one, or with all devices the latest mover. */
  target() {
    return this.device === "*" ? this.mover ?? this.focus : this.device;
  }

  moved(device, shown) {
    const now = performance.now();
    if (this.device === "*" && device !== this.mover) {
      const current = this.shown.get(this.mover);
      if (!current || now - current.movedAt > switchAfterMilliseconds) this.mover = device;
    }
    shown.movedAt = now;
  }

  minutes() {
    return Number(this.trailMinutes.value) || 10;
  }

  setTrailMinutes() {
    for (const { trail } of this.shown.values()) trail.setMinutes(this.minutes());
    this.backfill();
  }

  /** Fills the shown devices' trails from the history. */
  backfill() {
    for (const [device, { trail, last }] of this.shown) {
      if (last && this.isShown(device)) trail.backfill(last.time).catch(this.report);
    }
  }

  /** Turns following on (centring the followed device, and clearing a located event's ring) or off. */
  setFollow(on) {
    this.following = on;
    this.followButton.setAttribute("aria-pressed", String(on));
    if (!on) return;
    this.focusRing?.remove();
    this.centred = false;
    this.keepInView(this.target());
  }

  /**
   * While following (and the Live tab is shown): centres the device the first time, then pans
   * only when it leaves the map's middle, so the map moves now and then rather than on every fix.
   * The pan puts the device behind the centre, as seen along its last seconds' heading, leaving
   * it more room ahead; fixes that come while a pan runs are caught up when it ends.
   */
  keepInView(device) {
    const shown = this.shown.get(device);
    if (!this.following || !this.visible || !shown?.last) return;
    const at = [shown.last.latitude, shown.last.longitude];
    if (!this.centred) {
      this.centred = true;
      this.move(() => this.map.setView(at, Math.max(this.map.getZoom(), closeZoom), { animate: false }));
      return;
    }
    if (this.programmatic) { this.behind = device; return; }
    const size = this.map.getSize();
    const point = this.map.latLngToContainerPoint(at);
    const marginX = (size.x * (1 - innerShare)) / 2, marginY = (size.y * (1 - innerShare)) / 2;
    if (point.x >= marginX && point.x <= size.x - marginX && point.y >= marginY && point.y <= size.y - marginY) return;
    let centre = point;
    const from = shown.trail.before(headingMilliseconds);
    if (from) {
      const step = point.subtract(this.map.latLngToContainerPoint(from));
      const length = Math.hypot(step.x, step.y);
      if (length >= 1) centre = point.add(step.multiplyBy((lead * Math.min(size.x, size.y)) / 2 / length));
    }
    // Smoothly while the device is still on the map; at once if it already left it.
    const gone = point.x < 0 || point.y < 0 || point.x > size.x || point.y > size.y;
    this.move(() => this.map.panTo(this.map.containerPointToLatLng(centre), { animate: !gone, duration: 0.35 }));
  }

  /** Runs a move of the map that is this view's, not the user's (until it ends). */
  move(action) {
    this.programmatic++;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.programmatic--;
      this.map.off("moveend", end);
      clearTimeout(timer);
      if (!this.programmatic && this.behind != null) {
        const device = this.behind;
        this.behind = null;
        if (device === this.target()) this.keepInView(device);
      }
    };
    const timer = setTimeout(end, 1500);
    this.map.on("moveend", end);
    // Leaflet first stops a pan still running, whose moveend ends this move before the movestart
    // the action then fires: that movestart is still this view's.
    this.acting = true;
    try { action(); } finally { this.acting = false; }
  }

  /**
   * "Fit everything": every region and every shown device with its trail in view. Following
   * stops, unless `stopFollowing` is false (the first view, before any device has a fix).
   */
  fitEverything(stopFollowing = true) {
    if (stopFollowing) this.setFollow(false);
    const bounds = L.latLngBounds([]);
    const regions = this.regionBounds?.();
    if (regions?.isValid()) bounds.extend(regions);
    for (const [device, { marker, trail, last }] of this.shown) {
      if (!last || !this.isShown(device)) continue;
      bounds.extend(marker.getLatLng());
      if (trail.points.length) bounds.extend(trail.bounds());
    }
    this.move(() => fit(this.map, bounds));
  }

  /** An event's place: following stops, the map centres there with a ring around it. */
  locate(entry) {
    this.setFollow(false);
    const at = [entry.latitude, entry.longitude];
    this.move(() => this.map.setView(at, Math.max(this.map.getZoom(), closeZoom)));
    if (!this.focusRing) {
      this.focusRing = L.circleMarker(at, {
        pane: "eventFocus", className: "event-focus", radius: 14, color: "#111", weight: 3, dashArray: "5 4", fill: false,
      }).bindTooltip(textContent(""));
    }
    this.focusRing.setLatLng(at).setTooltipContent(textContent(`${describeEvent(entry)} · ${time(entry.time)}`)).addTo(this.map);
    // On a phone the list is under the map: bring the map back into sight.
    this.map.getContainer().scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  describe(entry) {
    const accuracy = entry.horizontalAccuracy != null ? ` ± ${Math.round(entry.horizontalAccuracy)} m` : "";
    const who = this.device === "*" ? `${entry.device ?? "local"} (latest fix; regions coloured for it): ` : "";
    this.positionText.textContent =
      `${who}${entry.latitude.toFixed(5)}, ${entry.longitude.toFixed(5)}${accuracy} at ${time(entry.time)}`;
    this.positionText.dataset.latitude = entry.latitude;
    this.positionText.dataset.longitude = entry.longitude;
    this.positionText.dataset.device = entry.device ?? "local";
    this.positionText.classList.remove("muted");
  }

  /** Events from the history (oldest first), replacing the list: the latest `count`. */
  recent(entries, count = 20) {
    this.eventList.replaceChildren();
    for (const entry of entries.slice(-count)) this.event(entry, "history");
  }

  /** An event from the stream (or the history), newest first; only the selected device's. */
  event(entry, source = "stream") {
    const device = entry.device ?? "local";
    if (!this.isShown(device)) return;
    const item = element("li", { "data-device": device, "data-kind": entry.kind },
      element("time", { datetime: entry.time, text: time(entry.time) }), " ",
      element("strong", { text: describeEvent(entry) }), " ",
      element("span", { class: "muted", text: device }));
    item.dataset.source = source;
    for (const button of [locateButton(entry), whyButton(entry)]) if (button) item.append(" ", button);
    if (entry.region) item.dataset.region = entry.region;
    if (entry.transition) item.dataset.transition = entry.transition;
    this.eventList.prepend(item);
    while (this.eventList.children.length > maximumEvents) this.eventList.lastElementChild.remove();
  }
}
