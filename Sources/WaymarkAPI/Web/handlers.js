// Handlers and power: each handler's state, standing, queue and energy (`GET /v1/handlers`,
// `GET /v1/power?by=handler`), and the energy ledger by radio and by handler as bars.

import * as api from "./api.js";
import { bars } from "./charts.js";
import { duration, element, joules } from "./format.js";

export class HandlersView {
  /** `fleet`: a fleet's api node, which has neither handlers nor an energy ledger (docs/fleet.md). */
  constructor({ rows, byRadio, byHandler, fleet = false }) {
    this.fleet = fleet;
    this.rows = rows;
    this.byRadio = byRadio;
    this.byHandler = byHandler;
  }

  async refresh() {
    if (this.fleet) {
      const note = "A fleet runs no handlers and keeps no energy ledger: its events reach their users through outputs.";
      this.rows.replaceChildren(element("tr", { "data-fleet": "yes" }, element("td", { colspan: 5, class: "muted", text: note })));
      bars(this.byRadio, []);
      bars(this.byHandler, []);
      return;
    }
    const [handlers, radio, handler] = await Promise.all([
      api.get("/v1/handlers"), api.get("/v1/power?by=radio"), api.get("/v1/power?by=handler"),
    ]);
    const energy = new Map();
    for (const row of handler.rows) energy.set(row.handler, (energy.get(row.handler) ?? 0) + row.joules);
    this.rows.replaceChildren(...handlers.handlers.map((h) => {
      const standing = h.standing
        ? `${h.standing.quick} quick, ${h.standing.slow} slow of ${h.standing.periods} (share ${h.standing.share})`
        : "—";
      return element("tr", { "data-handler": h.name },
        element("th", { scope: "row", text: h.name }),
        element("td", { text: `${h.state}${h.stateSeconds != null ? ` for ${duration(h.stateSeconds)}` : ""}` }),
        element("td", { text: standing }),
        element("td", { text: `${h.eventsQueued ?? 0} queued, ${h.eventsUnacknowledged ?? 0} unacknowledged` }),
        element("td", { text: joules(energy.get(h.name) ?? 0) }));
    }));
    if (!handlers.handlers.length) this.rows.append(element("tr", {}, element("td", { colspan: 5, class: "muted", text: "No handlers registered." })));
    bars(this.byRadio, total(radio.rows, (row) => row.radio));
    bars(this.byHandler, total(handler.rows, (row) => row.handler));
  }
}

/** Joules summed by `key`, largest first, as bar rows. */
function total(rows, key) {
  const sums = new Map();
  for (const row of rows) sums.set(key(row), (sums.get(key(row)) ?? 0) + row.joules);
  return [...sums].sort((a, b) => b[1] - a[1]).map(([label, value]) => ({ label, value, text: joules(value) }));
}
