// Calendar days and instants in a patient's time zone, and locale formatting (Intl, the browser's locale).

const partFormats = new Map();

/** The wall-clock parts of `date` in `timeZone`: {year, month, day, hour, minute, second}. */
export function zoneParts(date, timeZone) {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    partFormats.set(timeZone, format);
  }
  const parts = {};
  for (const p of format.formatToParts(date)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return parts;
}

/** Milliseconds `timeZone` is ahead of UTC at `date`. */
function offsetAt(date, timeZone) {
  const p = zoneParts(date, timeZone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(date.getTime() / 1000) * 1000;
}

/** The instant of wall-clock `day` ("YYYY-MM-DD") at `time` ("HH:MM") in `timeZone`. */
export function zonedInstant(day, time, timeZone) {
  const [y, m, d] = day.split('-').map(Number);
  const [hh, mm] = (time || '00:00').split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  let t = wall - offsetAt(new Date(wall), timeZone);
  const second = wall - offsetAt(new Date(t), timeZone);
  if (second !== t) t = second;
  return new Date(t);
}

/** The calendar day ("YYYY-MM-DD") of `date` in `timeZone`. */
export function dayIn(date, timeZone) {
  const p = zoneParts(date, timeZone);
  return `${String(p.year).padStart(4, '0')}-${pad(p.month)}-${pad(p.day)}`;
}

/** The wall-clock time ("HH:MM") of `date` in `timeZone`. */
export function timeIn(date, timeZone) {
  const p = zoneParts(date, timeZone);
  return `${pad(p.hour)}:${pad(p.minute)}`;
}

/** `day` plus `n` calendar days. */
export function addDays(day, n) {
  const [y, m, d] = day.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return `${String(t.getUTCFullYear()).padStart(4, '0')}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** The Monday on or before `day`. */
export function mondayOf(day) {
  const [y, m, d] = day.split('-').map(Number);
  const weekday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** ISO 8601 week of `day`: "2020-W25". */
export function isoWeek(day) {
  const thursday = addDays(mondayOf(day), 3);
  const [y] = thursday.split('-').map(Number);
  const jan4 = mondayOf(`${String(y).padStart(4, '0')}-01-04`);
  const days = (Date.parse(thursday) - Date.parse(jan4)) / 86400000;
  return `${String(y).padStart(4, '0')}-W${pad(Math.floor(days / 7) + 1)}`;
}

/** A calendar day as a Date at UTC noon, for formatting the day itself (never shifted by a zone). */
export function dayAsDate(day) {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d, 12));
}

function pad(n) { return String(n).padStart(2, '0'); }

/** Formatters in the browser's locale; instants shown in the patient's time zone. */
export class Formats {
  constructor(timeZone) {
    this.timeZone = timeZone;
    this.number = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
    this.integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
    this.meters = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'meter', maximumFractionDigits: 1 });
    this.dayLong = new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
    this.dayShort = new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', month: 'numeric', day: 'numeric' });
    this.weekday = new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', weekday: 'narrow' });
    this.instant = new Intl.DateTimeFormat(undefined, { timeZone, year: 'numeric', month: 'short', day: 'numeric',
      hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
    this.range = new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });
    this.instantDay = new Intl.DateTimeFormat(undefined, { timeZone, month: 'short', day: 'numeric' });
  }
  /** "Tue, Jun 16, 2020" for a calendar day. */
  day(day) { return this.dayLong.format(dayAsDate(day)); }
  /** "Jun 1 – 28, 2020" for the calendar days `first` through `last`, the year always shown. */
  dayRange(first, last) { return this.range.formatRange(dayAsDate(first), dayAsDate(last)); }
  /** "6/16" for a calendar day. */
  shortDay(day) { return this.dayShort.format(dayAsDate(day)); }
  /** An instant (RFC 3339 text or Date) in the patient's time zone. */
  at(instant) { return this.instant.format(typeof instant === 'string' ? new Date(instant) : instant); }
}
