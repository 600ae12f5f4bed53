// "why?" beside a region or beacon event: fetches `GET /v1/events/{id}/explain` (docs/explain.md)
// and shows the answer under the event as text. Every value goes in through textContent
// (docs/security.md): region ids, device names and records come from phones.

import * as api from "./api.js";

/** A "why?" button for an event the API gave an id, or null for others. */
export function whyButton(entry) {
  if (entry.id == null || (entry.kind !== "region" && entry.kind !== "beacon")) return null;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "why";
  button.textContent = "why?";
  button.dataset.event = String(entry.id);
  button.addEventListener("click", () => toggle(button, entry.id));
  return button;
}

async function toggle(button, id) {
  const item = button.closest("li");
  const shown = item.querySelector("pre.explanation");
  if (shown) { shown.remove(); return; }
  const pre = document.createElement("pre");
  pre.className = "explanation";
  pre.textContent = "…";
  item.append(pre);
  try {
    pre.textContent = explanationText(await api.get(`/v1/events/${encodeURIComponent(id)}/explain`));
  } catch (error) {
    pre.textContent = `no explanation: ${error.message}`;
  }
  pre.dataset.reproduced = pre.textContent.startsWith("reproduced: yes") ? "yes" : "no";
}

const number = (value, digits = 1) => (value == null ? "—" : String(Math.round(value * 10 ** digits) / 10 ** digits));

function fixLine(fix, confirmedAt) {
  const accuracy = fix.horizontalAccuracy == null ? "" : ` ±${number(fix.horizontalAccuracy)} m`;
  const edge = `${fix.edgeDistance > 0 ? "+" : ""}${number(fix.edgeDistance)} m`;
  const mark = fix.time === confirmedAt ? "  ← confirmed" : fix.dropped ? `  (dropped: ${fix.dropped})` : "";
  return `${fix.time}${accuracy}  ${fix.inside ? "inside " : "outside"}  edge ${edge}${mark}`;
}

/** The explanation's main facts, a line each (what `waymark explain` prints, shorter). */
export function explanationText(answer) {
  const lines = [];
  if (answer.reproduced === true) lines.push("reproduced: yes, recomputed from the stored fixes");
  else if (answer.reproduced === false) lines.push(`reproduced: NO: ${answer.mismatch ?? "the recomputation differs"}`);
  else lines.push("reproduced: not recomputed");
  if (answer.rule) {
    lines.push(`rule: ${answer.rule}${answer.estimated ? " (from the estimate at rest)" : ""}, confirmed ${answer.confirmedAt ?? "—"}`);
  }
  const settings = [];
  if (answer.margin != null) settings.push(`margin ${number(answer.margin)} m`);
  if (answer.delay != null) settings.push(`delay ${number(answer.delay)} s`);
  if (answer.exitTimeout != null) settings.push(`exit timeout ${number(answer.exitTimeout)} s`);
  if (settings.length) lines.push(settings.join(", "));
  const before = (answer.before ?? []).slice(-3);
  const confirmedAt = answer.confirmedAt;
  const through = (answer.after ?? []).findIndex((fix) => fix.time === confirmedAt);
  const after = (answer.after ?? []).slice(0, through >= 0 ? Math.min(through + 1, 40) : 5);
  if (before.length || after.length) {
    lines.push("fixes:");
    for (const fix of before) lines.push(`  ${fixLine(fix, confirmedAt)}`);
    lines.push(`  — ${answer.event?.time ?? ""}: the event —`);
    for (const fix of after) lines.push(`  ${fixLine(fix, confirmedAt)}`);
  }
  if (answer.path) {
    lines.push(`path: straight from ${answer.path.from.time} to ${answer.path.to.time}`);
    for (const point of answer.path.points) lines.push(`  ${point.transition} at ${point.time}`);
  }
  for (const note of answer.notes ?? []) lines.push(`note: ${note}`);
  return lines.join("\n");
}
