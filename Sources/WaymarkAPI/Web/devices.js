// Every device on the live map in its own colour, listed with that colour: the colours are
// assigned in the order of the devices' names, so a device keeps its colour across reloads.

import { element, naturally, time } from "./format.js";

/**
 * Okabe and Ito's colour-blind-safe palette without its blue and bluish green, which the
 * regions' "outside" and "inside" already use; black is softened to near-black.
 */
export const devicePalette = ["#d55e00", "#cc79a7", "#e69f00", "#222222", "#56b4e9", "#f0e442"];

/** Devices sorted as people read names (`phone2` before `phone10`). */
function sorted(names) {
  return [...names].sort(naturally);
}

/**
 * The device list of the Live panel (`ul#device-legend`): a `li[data-device]` per device with
 * a swatch in its colour, its name and the time of its latest fix; pressing one selects it.
 */
export class DeviceList {
  /** `onSelect(name)`: a device was chosen from the list. */
  constructor(list, onSelect) {
    this.list = list;
    this.onSelect = onSelect;
    this.names = [];
    this.colours = new Map();  // device → colour
    this.rows = new Map();     // device → { item, button, when }
    this.modes = new Map();    // device → its phone's mode, as `GET /v1/status` gives it
    this.selected = null;
  }

  /**
   * A phone's monitoring mode beside its name (docs/devices.md, "Batteries"): the mode Waymark
   * wants and when the phone confirmed it, or that the phone ignores commands.
   */
  mode(name, mode) {
    if (!mode || mode.policy === "off" || !mode.desired) return;
    const text = mode.ignoresCommands ? "ignores commands"
      : mode.confirmedAt ? `${mode.desired} since ${time(mode.confirmedAt)}` : `${mode.desired} asked`;
    this.modes.set(name, { text, title: mode.ignoresCommands
      ? `Waymark wants ${mode.desired}; the phone stays in ${mode.reported ?? "its own mode"} (remote configuration off?)`
      : `reported ${mode.reported ?? "nothing"}, ${mode.attempts} command(s) waiting` });
    this.render();
  }

  /** Lists `names` (adding to those known); returns true when any device's colour changed. */
  set(names) {
    const all = sorted(new Set([...this.names, ...names]));
    if (all.length === this.names.length) return false;
    this.names = all;
    let changed = false;
    all.forEach((name, index) => {
      const colour = devicePalette[index % devicePalette.length];
      if (this.colours.get(name) !== colour) changed = true;
      this.colours.set(name, colour);
    });
    this.render();
    return changed;
  }

  /** The device's colour (listing it first if it is new). */
  colour(name) {
    if (!this.colours.has(name)) this.set([name]);
    return this.colours.get(name);
  }

  /** The time of a device's latest fix, shown beside its name. */
  seen(name, at) {
    const row = this.rows.get(name);
    if (!row) return;
    row.when.textContent = time(at);
    row.when.dateTime = at;
  }

  /** Marks the chosen device ("*": all of them). */
  select(name) {
    this.selected = name;
    for (const [device, { button }] of this.rows) {
      button.setAttribute("aria-pressed", String(name === "*" || name === device));
    }
  }

  render() {
    const previous = this.rows;
    this.rows = new Map();
    this.list.replaceChildren(...this.names.map((name) => {
      const swatch = element("span", { class: "swatch", "aria-hidden": "true" });
      swatch.style.backgroundColor = this.colours.get(name);
      const old = previous.get(name)?.when;
      const when = element("time", { class: "muted", text: old?.textContent ?? "no fix" });
      if (old?.dateTime) when.dateTime = old.dateTime;
      const mode = this.modes.get(name);
      const button = element("button", { type: "button", class: "device-entry", "aria-pressed": "false" },
        swatch, element("span", { class: "name", text: name }), " ", when,
        ...(mode ? [" ", element("span", { class: "muted mode", text: mode.text, title: mode.title })] : []));
      button.addEventListener("click", () => this.onSelect(name));
      this.rows.set(name, { button, when });
      return element("li", { "data-device": name }, button);
    }));
    if (this.selected) this.select(this.selected);
  }
}
