// "map" beside an event that has a position: shows where it happened on the live map (the view
// registered with `onLocate`) and opens its explanation as its "why?" button does.

import { describeEvent, element } from "./format.js";

let locator = null;

/** Registers what shows an event on the map: `show(entry)`. */
export function onLocate(show) {
  locator = show;
}

/** A `button.locate` for an event with a latitude and longitude, or null for others. */
export function locateButton(entry) {
  if (entry.latitude == null || entry.longitude == null) return null;
  const button = element("button", {
    type: "button", class: "locate", text: "map", "aria-label": `Show on the map: ${describeEvent(entry)}`,
  });
  button.addEventListener("click", () => {
    locator?.(entry);
    const item = button.closest("li");
    const why = item?.querySelector("button.why");
    if (why && !item.querySelector("pre.explanation")) why.click();
  });
  return button;
}
