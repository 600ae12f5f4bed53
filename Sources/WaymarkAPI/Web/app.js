// The page: signs in when the listener asks for a token, then shows the live map and the views.
// Everything it shows comes from the documented API (docs/openapi.yaml).

import * as api from "./api.js";
import { createMap } from "./map.js";
import { addLegend } from "./legend.js";
import { LiveView } from "./live.js";
import { RegionsView } from "./regions.js";
import { HistoryView } from "./history.js";
import { DayView } from "./day.js";
import { HandlersView } from "./handlers.js";

const $ = (id) => document.getElementById(id);

/** Resolves once a request gets through: at once over the socket, after sign-in over TCP. */
async function signedIn() {
  // Liveness needs no token and says whether this listener wants one: ask before the first
  // request rather than after a refusal.
  const health = await api.get("/v1/health");
  if (health.tokenRequired && !api.hasToken()) await askForToken();
  for (;;) {
    try {
      return await api.get("/v1/status");
    } catch (error) {
      if (!(error instanceof api.Unauthorized)) throw error;
      await askForToken();
    }
  }
}

function askForToken() {
  const dialog = $("login");
  return new Promise((resolve) => {
    $("login-form").onsubmit = () => {
      api.setToken($("login-token").value.trim());
      $("login-token").value = "";  // held by api.js alone, not left in the field
      $("login-error").textContent = "";
      resolve();
    };
    if (api.hasToken()) $("login-error").textContent = "That token was refused.";
    if (!dialog.open) dialog.showModal();
  });
}

function tabs(onShow) {
  const buttons = [...document.querySelectorAll('[role="tab"]')];
  const show = (button) => {
    for (const other of buttons) {
      const selected = other === button;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      $(other.getAttribute("aria-controls")).hidden = !selected;
    }
    Promise.resolve(onShow(button.id.replace("tab-", ""))).catch(report);
  };
  buttons.forEach((button, index) => {
    button.addEventListener("click", () => show(button));
    button.addEventListener("keydown", (event) => {
      const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
      if (!step) return;
      const next = buttons[(index + step + buttons.length) % buttons.length];
      next.focus();
      show(next);
    });
  });
  show(buttons[0]);
}

async function main() {
  const status = await signedIn();
  const web = await api.get("/v1/web");
  const map = createMap($("map"), web.basemap);
  addLegend(map);
  const select = $("device");
  const live = new LiveView(map, {
    position: $("position"), events: $("events"), follow: $("follow"), fitAll: $("fit-all"),
    trailMinutes: $("trail-minutes"), legend: $("device-legend"), report,
    regionBounds: () => regions.layer.getBounds(),
    onSelect: (device) => { select.value = device; select.dispatchEvent(new Event("change")); },
  });
  const regions = new RegionsView(map, { rows: $("region-rows"), drop: $("drop"), file: $("region-file"), result: $("import-result") });
  const history = new HistoryView(map, {
    form: $("history-form"), from: $("history-from"), to: $("history-to"), summary: $("history-summary"),
    stats: $("history-stats"), profile: $("profile"), profileChart: $("profile-chart"), downloads: $("downloads"),
    events: $("history-events"), calendar: $("history-calendar"), heat: $("heat-toggle"),
  });
  const day = new DayView(map, {
    form: $("day-form"), date: $("day-date"), summary: $("day-summary"), list: $("day-entries"), legend: $("day-legend"),
    fleet: status.source.kind === "fleet",
  });
  const handlers = new HandlersView({
    rows: $("handler-rows"), byRadio: $("power-radio"), byHandler: $("power-handler"), fleet: status.source.kind === "fleet",
  });

  // Devices: the receiver (`local`) and the network devices, each with its latest fix.
  const devices = await api.get("/v1/devices");
  // A fleet has no receiver: only its network devices are listed.
  const latest = new Map(status.source.kind === "fleet" ? [] : [["local", status.lastFix]]);
  for (const device of status.devices ?? []) latest.set(device.device, device.lastFix);
  for (const device of devices.devices ?? []) if (!latest.has(device.name)) latest.set(device.name, null);
  // "All devices" first; the default when two or more devices have fixes.
  select.replaceChildren(new Option("All devices", "*"), ...[...latest.keys()].map((name) => new Option(name, name)));
  const withFixes = [...latest].filter(([, fix]) => fix).map(([name]) => name);
  select.value = withFixes.length >= 2 ? "*" : withFixes[0] ?? "local";
  live.listDevices([...latest.keys()]);
  for (const device of status.devices ?? []) live.devices.mode(device.device, device.mode);

  await regions.load();
  for (const [, fix] of latest) if (fix) live.fix(fix);
  let view = "live";
  // Regions, History and Day show one device: with "All devices", the one seen last.
  const newest = () => [...latest].filter(([, fix]) => fix)
    .reduce((best, entry) => (!best || Date.parse(entry[1].time) > Date.parse(best[1].time) ? entry : best), null)?.[0]
    ?? [...latest.keys()][0];
  const choose = async () => {
    const selected = select.value;
    const device = selected === "*" ? newest() : selected;
    live.select(selected, device);
    const events = await regions.select(device, Boolean(latest.get(device)));
    const range = await api.get(`/v1/fixes?device=${encodeURIComponent(device)}&limit=1`);
    history.select(device, range.items[0]?.time, latest.get(device)?.time);
    day.select(device, latest.get(device)?.time);
    // The list starts with the selection's latest events; the stream adds the rest.
    live.recent(selected === "*" ? (await api.get("/v1/events")).items : events);
    if (view === "history") await history.show();
    if (view === "day") await day.show();
  };
  select.addEventListener("change", () => choose().catch(report));
  await choose();
  if (!withFixes.length) live.fitEverything(false);

  let refresher = null;
  tabs(async (name) => {
    view = name;
    live.setVisible(name === "live");
    history.shown(name === "history");
    day.shown(name === "day");
    clearInterval(refresher);
    if (name === "history") await history.show();
    if (name === "day") await day.show();
    if (name === "handlers") {
      await handlers.refresh();
      refresher = setInterval(() => handlers.refresh().catch(report), 10_000);
    }
  });

  follow(live, regions, latest);
}

/** The live stream, reconnecting with backoff; the connection state in the header. */
async function follow(live, regions, latest) {
  const state = $("connection");
  let delay = 1000;
  for (;;) {
    try {
      state.textContent = "live";
      state.dataset.state = "live";
      await api.stream("/v1/stream", (kind, entry) => {
        if (kind === "fix") {
          latest.set(entry.device ?? "local", entry);
          live.fix(entry);
        } else if (kind === "event") {
          live.event(entry);
          regions.transition(entry);
        }
        delay = 1000;
      });
    } catch (error) {
      if (error instanceof api.Unauthorized) return location.reload();
    }
    state.textContent = "reconnecting…";
    state.dataset.state = "reconnecting";
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 30_000);
  }
}

function report(error) {
  const state = $("connection");
  state.textContent = `error: ${error.message}`;
  state.dataset.state = "error";
}

main().catch(report);
