// Small formatting helpers shared by the views.

export function time(iso) {
  if (!iso) return "—";
  const date = new Date(iso);
  return date.toLocaleString(undefined, { dateStyle: "short", timeStyle: "medium" });
}

/** A time as the API takes it: RFC 3339 UTC to the second (`2026-06-01T08:00:00Z`), from
 *  anything `new Date` reads (a Date, milliseconds, a `datetime-local` value). */
export function rfc3339(value) {
  return new Date(value).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Names as people read them: `c3` before `c11`, `phone2` before `phone10`. */
export function naturally(x, y) {
  return x.localeCompare(y, undefined, { numeric: true });
}

export function duration(seconds) {
  if (!Number.isFinite(seconds)) return "—";
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return h ? `${h} h ${m} min` : m ? `${m} min ${r} s` : `${r} s`;
}

export function distance(metres) {
  return metres >= 1000 ? `${(metres / 1000).toFixed(2)} km` : `${Math.round(metres)} m`;
}

export function joules(value) {
  if (value >= 3600) return `${(value / 3600).toFixed(2)} Wh`;
  return `${value.toFixed(value < 10 ? 2 : 0)} J`;
}

/** An element with text content and attributes; children appended. */
export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") node.textContent = value;
    else if (value !== undefined && value !== null) node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

/**
 * Text for Leaflet, which inserts a string tooltip, popup or attribution as HTML: a `<span>`
 * holding `value` as text, so a region id, device name or event field from a phone is shown,
 * never parsed (issue 48).
 */
export function textContent(value) {
  return element("span", { text: String(value) });
}

/** `value` with `& < > " '` escaped, for the one Leaflet string that must be HTML (the
 *  attribution control has no text form). */
export function escapeHTML(value) {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An event's one-line description: `enter forest`, `place home`, `no place`, `visit`,
 *  `significant change`, `reported visit Office`, `reported cycling`. */
export function describeEvent(entry) {
  const record = entry.record ?? entry;
  const kind = record.kind ?? entry.kind;
  if (record.transition && record.region) return `${record.transition} ${record.region}`;
  if (kind === "place") return record.place ? `place ${record.place}` : "no place";
  // Imported history: what the file's own application concluded (docs/import.md).
  if (kind === "reportedVisit") return ["reported visit", record.name ?? record.semanticType].filter(Boolean).join(" ");
  if (kind === "reportedActivity") return ["reported", (record.mode ?? "activity").toLowerCase().replaceAll("_", " ")].join(" ");
  return String(kind ?? "event").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}
