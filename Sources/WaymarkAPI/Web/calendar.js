// The History view's calendar: one month as a grid of day buttons, weeks as rows, the days on
// which the device has fixes marked (`GET /v1/history/days`, counted in the browser's zone) and
// named with their count. Arrow keys move between days (one day button is in the tab order at a
// time); choosing a day hands its date to the view.

import { element } from "./format.js";

const pad = (n) => String(n).padStart(2, "0");

/** `YYYY-MM-DD` of a calendar date (UTC fields: these dates have no time of day). */
function isoDate(date) {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

function parseDate(text) {
  const [year, month, day] = text.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day));
}

/** The locale's first day of the week, 0 = Sunday … 6; Monday when the browser does not say. */
function firstWeekday() {
  try {
    const locale = new Intl.Locale(navigator.language);
    const info = locale.getWeekInfo?.() ?? locale.weekInfo;
    if (info?.firstDay) return info.firstDay % 7;
  } catch { /* an unknown locale: Monday */ }
  return 1;
}

const fullDate = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
const monthName = new Intl.DateTimeFormat(undefined, { month: "long", year: "numeric", timeZone: "UTC" });
const weekdayShort = new Intl.DateTimeFormat(undefined, { weekday: "short", timeZone: "UTC" });
const weekdayLong = new Intl.DateTimeFormat(undefined, { weekday: "long", timeZone: "UTC" });

export class Calendar {
  /**
   * Builds the calendar inside `container` (#history-calendar); `onPick(date)` is called with
   * `YYYY-MM-DD` when a day is chosen.
   */
  constructor(container, onPick) {
    this.onPick = onPick;
    this.counts = new Map();
    this.selected = null;
    this.month = new Date(Date.UTC(new Date().getFullYear(), new Date().getMonth(), 1));
    this.firstDay = firstWeekday();
    this.caption = element("caption", { id: "calendar-caption" });
    this.body = element("tbody");
    const head = element("tr");
    for (let i = 0; i < 7; i++) {
      // 2024-01-07 was a Sunday.
      const day = new Date(Date.UTC(2024, 0, 7 + ((this.firstDay + i) % 7)));
      head.append(element("th", { scope: "col", abbr: weekdayLong.format(day), text: weekdayShort.format(day) }));
    }
    this.grid = element("table", { role: "grid", "aria-label": "Days with data", class: "calendar-grid" },
      this.caption, element("thead", {}, head), this.body);
    const previous = element("button", { type: "button", id: "calendar-prev", class: "calendar-step", "aria-label": "Previous month", text: "‹" });
    const next = element("button", { type: "button", id: "calendar-next", class: "calendar-step", "aria-label": "Next month", text: "›" });
    previous.addEventListener("click", () => this.step(-1));
    next.addEventListener("click", () => this.step(1));
    container.replaceChildren(element("div", { class: "calendar-nav" }, previous, next), this.grid);
    this.body.addEventListener("keydown", (event) => this.key(event));
    this.render();
  }

  /** The days with data (`[{date, fixes}]`); an empty list clears the marks. */
  setDays(days) {
    this.counts = new Map(days.map((day) => [day.date, day.fixes]));
    this.render();
  }

  /** Marks `date` (`YYYY-MM-DD`, or null) as the shown day and opens its month. */
  select(date) {
    this.selected = date;
    if (date) {
      const day = parseDate(date);
      this.month = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
    }
    this.render();
  }

  step(months, focusDate) {
    this.month = new Date(Date.UTC(this.month.getUTCFullYear(), this.month.getUTCMonth() + months, 1));
    this.render(focusDate);
  }

  render(focusDate) {
    // Drawn again under the keyboard: the focus stays on its day.
    focusDate ??= this.body.contains(document.activeElement) ? document.activeElement.dataset.date : undefined;
    const year = this.month.getUTCFullYear();
    const month = this.month.getUTCMonth();
    this.caption.textContent = monthName.format(this.month);
    const length = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    const lead = (this.month.getUTCDay() - this.firstDay + 7) % 7;
    const inMonth = (date) => date?.startsWith(`${year}-${pad(month + 1)}-`);
    // The one day in the tab order: the one asked, the shown day, the month's latest day with data, or the 1st.
    const withData = [...this.counts.keys()].filter(inMonth).sort();
    const current = [focusDate, this.selected, withData.at(-1)].find(inMonth) ?? `${year}-${pad(month + 1)}-01`;
    const rows = [];
    let row = element("tr");
    for (let i = 0; i < lead; i++) row.append(element("td"));
    for (let day = 1; day <= length; day++) {
      const date = `${year}-${pad(month + 1)}-${pad(day)}`;
      const fixes = this.counts.get(date);
      const name = fullDate.format(new Date(Date.UTC(year, month, day)));
      const button = element("button", {
        type: "button", class: "calendar-day", "data-date": date, "data-has-data": fixes ? "yes" : "no",
        "aria-label": fixes ? `${name}, ${fixes.toLocaleString()} ${fixes === 1 ? "fix" : "fixes"}` : name,
        tabindex: date === current ? "0" : "-1", text: String(day),
      });
      button.addEventListener("click", () => this.pick(date));
      row.append(element("td", { "aria-selected": String(date === this.selected) }, button));
      if (row.children.length === 7) { rows.push(row); row = element("tr"); }
    }
    if (row.children.length) {
      while (row.children.length < 7) row.append(element("td"));
      rows.push(row);
    }
    this.body.replaceChildren(...rows);
    if (focusDate) this.body.querySelector(`[data-date="${focusDate}"]`)?.focus();
  }

  pick(date) {
    this.select(date);
    this.body.querySelector(`[data-date="${date}"]`)?.focus();
    this.onPick(date);
  }

  /** Arrows: a day or a week; Home/End: the week's ends; Page Up/Down: a month. */
  key(event) {
    const date = event.target.dataset?.date;
    if (!date) return;
    const day = parseDate(date);
    const weekday = (day.getUTCDay() - this.firstDay + 7) % 7;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7, Home: -weekday, End: 6 - weekday };
    let target;
    if (event.key in moves) target = new Date(day.getTime() + moves[event.key] * 86_400_000);
    else if (event.key === "PageUp" || event.key === "PageDown") {
      const months = event.key === "PageUp" ? -1 : 1;
      const length = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + months + 1, 0)).getUTCDate();
      target = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + months, Math.min(day.getUTCDate(), length)));
    } else return;
    event.preventDefault();
    const months = (target.getUTCFullYear() - this.month.getUTCFullYear()) * 12 + target.getUTCMonth() - this.month.getUTCMonth();
    this.step(months, isoDate(target));
  }
}
