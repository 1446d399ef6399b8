// The weekly report form: a week's six-minute walk tests, posted as one version of a report.
import { Problem } from './api.js';
import { byId, el, fill } from './dom.js';
import { showProblem } from './problems.js';
import { addDays, dayIn, isoWeek, mondayOf, timeIn, zonedInstant } from './time.js';

const WALK = 'sixMinuteWalkTestDistance';
const TEST_MINUTES = 6;

export class ReportEditor {
  constructor(view) {
    this.view = view;
    this.base = null;       // the stored report being edited (null: a new one)
    this.rows = [];         // { key, original, inputs }
    this.others = [];       // the base report's samples this form does not show (not walk tests): posted unchanged
    this.offs = [];
    this.submission = null; // { body: JSON text, key } of the submission under way or last refused
    this.posting = false;
  }

  get tz() { return this.view.patient.timeZone; }
  get own() { return this.view.session.who.source; }

  attach() {
    const on = (id, type, handler) => {
      byId(id).addEventListener(type, handler);
      this.offs.push(() => byId(id).removeEventListener(type, handler));
    };
    on('report-form', 'submit', (e) => { e.preventDefault(); this.post(); });
    on('add-test', 'click', () => { const row = this.addRow(); row.inputs.day.focus(); });
    on('new-report', 'click', () => { this.reset(); byId('report-week').focus(); });
    on('report-week', 'change', () => this.weekTyped());
    on('report-week', 'blur', () => this.weekChanged());
  }

  detach() { clearTimeout(this.weekTimer); for (const off of this.offs) off(); this.offs = []; }

  /** The caller's stored report with this identifier, if any. */
  stored(syncIdentifier) {
    return this.view.reports.find((r) => r.syncIdentifier === syncIdentifier && r.source === this.own) || null;
  }

  /** A new report for the current week (or the stored one of that week, to edit). */
  reset() {
    this.startWeek(mondayOf(dayIn(new Date(), this.tz)));
  }

  startWeek(week) {
    const existing = this.stored(`report-${isoWeek(week)}`);
    if (existing) { this.load(existing); return; }
    this.base = null;
    this.others = [];
    byId('report-week').value = week;
    byId('report-id').value = `report-${isoWeek(week)}`;
    byId('report-version').value = '1';
    fill(byId('tests').tBodies[0]);
    this.rows = [];
    this.addRow();
    this.mode();
  }

  /**
   * The week field changed. While a person types into it, each keystroke can make a whole but unfinished
   * date (2026-01-23 after the "1" of 10/26/2020, then the year 0002): moving the field to a Monday then would
   * fight the typing. So a change in the focused field waits for a pause, and leaving the field settles it.
   */
  weekTyped() {
    clearTimeout(this.weekTimer);
    if (document.activeElement !== byId('report-week')) { this.weekChanged(); return; }
    this.weekTimer = setTimeout(() => this.weekChanged(), 1500);
  }

  /** Moves a complete week date to its Monday and starts (or loads) that week's report. */
  weekChanged() {
    clearTimeout(this.weekTimer);
    const week = byId('report-week').value;
    if (!week || this.base) { this.checkRows(); return; }
    if (!isCompleteDay(week)) return;
    if (mondayOf(week) === week && byId('report-id').value === `report-${isoWeek(week)}`) return;
    this.startWeek(mondayOf(week));
  }

  /** Loads a stored report to post its next version; focuses the test `focusKey`. */
  load(report, focusKey, { quiet = false } = {}) {
    this.base = report;
    byId('report-week').value = report.weekStart;
    byId('report-id').value = report.syncIdentifier;
    byId('report-version').value = String(report.syncVersion + 1);
    fill(byId('tests').tBodies[0]);
    this.rows = [];
    for (const sample of report.samples.filter((s) => s.type === WALK)) this.addRow(sample);
    this.others = report.samples.filter((s) => s.type !== WALK);
    if (!this.rows.length) this.addRow();
    this.mode();
    if (quiet) return;
    byId('editor').scrollIntoView({ block: 'start' });
    const target = this.rows.find((r) => r.key === focusKey) || this.rows[0];
    (focusKey ? target.inputs.value : byId('report-version')).focus();
    if (focusKey) target.inputs.value.select();
  }

  /** Called when the reports were reloaded: keeps the form on the stored version it edits. */
  reportsChanged() {
    if (!this.base) return;
    const now = this.stored(this.base.syncIdentifier);
    if (!now) { this.base = null; this.mode(); return; }
    if (now.syncVersion !== this.base.syncVersion && !this.dirty()) this.load(now, null, { quiet: true });
  }

  dirty() {
    return this.rows.some((r) => !r.original || r.inputs.value.value !== String(r.original.value)
      || r.inputs.day.value !== r.original.day || r.inputs.time.value !== r.original.time
      || r.inputs.note.value !== String(r.original.metadata.note ?? ''));
  }

  mode() {
    const text = this.base
      ? `Editing ${this.base.syncIdentifier}, stored version ${this.base.syncVersion}: posting version ${this.base.syncVersion + 1} replaces only the tests you change.`
      : 'A new report for this week.';
    const n = this.others.length;
    const kept = n ? ` It also holds ${n} other sample${n === 1 ? '' : 's'} (${[...new Set(this.others.map((s) => s.type))].join(', ')}), `
      + 'not shown here, which every version you post keeps unchanged.' : '';
    byId('report-mode').textContent = text + kept;
  }

  addRow(sample) {
    const tz = this.tz;
    const week = byId('report-week').value;
    const original = sample ? {
      key: sample.key, value: sample.value, start: sample.start, end: sample.end, metadata: sample.metadata || {},
      day: dayIn(new Date(sample.start), tz), time: timeIn(new Date(sample.start), tz),
    } : null;
    const n = this.rows.length + 1;
    const inputs = {
      day: el('input', { type: 'date', 'aria-label': `Test ${n} day`, required: true, value: original?.day ?? week,
        min: week || null, max: week ? addDays(week, 6) : null }),
      time: el('input', { type: 'time', 'aria-label': `Test ${n} time`, required: true, value: original?.time ?? '10:00' }),
      value: el('input', { type: 'number', 'aria-label': `Test ${n} distance in metres`, min: '0', step: 'any', inputmode: 'decimal',
        value: original ? String(original.value) : '' }),
      note: el('input', { type: 'text', 'aria-label': `Test ${n} notes`, value: original ? String(original.metadata.note ?? '') : '' }),
    };
    const row = { key: original?.key ?? null, original, inputs };
    // The column headers name the cells on wide screens; on a phone the rows stack and show these names.
    const cell = (name, input) => el('td', {}, el('span', { class: 'cell-name', 'aria-hidden': 'true', text: name }), input);
    const tr = el('tr', {},
      cell('Day', inputs.day), cell('Time', inputs.time), cell('Distance (m)', inputs.value), cell('Notes', inputs.note),
      el('td', {}, el('button', { type: 'button', class: 'quiet small', 'aria-label': `Remove test ${n}`,
        onclick: () => { this.rows = this.rows.filter((r) => r !== row); tr.remove(); } }, '✕')));
    row.tr = tr;
    byId('tests').tBodies[0].append(tr);
    this.rows.push(row);
    return row;
  }

  checkRows() {
    const week = byId('report-week').value;
    for (const r of this.rows) {
      r.inputs.day.min = week || '';
      r.inputs.day.max = week ? addDays(week, 6) : '';
    }
  }

  /** The request body; sample `n` is `this.rows[n]`. */
  body() {
    const tz = this.tz;
    const keys = new Set([...this.rows.map((r) => r.key), ...this.others.map((s) => s.key)].filter(Boolean));
    const samples = this.rows.map((r) => {
      const day = r.inputs.day.value, time = r.inputs.time.value;
      let key = r.key;
      if (!key) {
        key = day || 'test';
        for (let k = 2; keys.has(key); k += 1) key = `${day || 'test'}-${k}`;
        keys.add(key);
        r.key = key;
      }
      const same = r.original && day === r.original.day && time === r.original.time;
      let start = null, end = null;
      if (same) { start = r.original.start; end = r.original.end; }
      else if (day && time) {
        const at = zonedInstant(day, time, tz);
        start = at.toISOString();
        end = new Date(at.getTime() + TEST_MINUTES * 60000).toISOString();
      }
      const metadata = { ...(r.original?.metadata || {}) };
      delete metadata.note;
      const note = r.inputs.note.value.trim();
      if (note) metadata.note = note;
      const text = r.inputs.value.value.trim();
      return { key, type: WALK, value: text === '' ? null : Number(text), unit: 'm', start, end, metadata };
    });
    // Samples this form does not show go back exactly as stored, so a new version never drops them.
    for (const s of this.others) {
      const kept = { key: s.key, type: s.type, start: s.start, end: s.end, metadata: s.metadata || {} };
      if (s.components) kept.components = s.components; else kept.value = s.value;
      if (s.unit !== undefined && s.unit !== null) kept.unit = s.unit;
      samples.push(kept);
    }
    const version = byId('report-version').value.trim();
    return {
      syncIdentifier: byId('report-id').value.trim(),
      syncVersion: version === '' ? null : Number(version),
      weekStart: byId('report-week').value || null,
      timeZone: tz,
      samples,
    };
  }

  markInvalid(errors) {
    for (const input of byId('report-form').querySelectorAll('input')) input.removeAttribute('aria-invalid');
    const top = { syncIdentifier: 'report-id', syncVersion: 'report-version', weekStart: 'report-week' };
    const cell = { value: 'value', unit: 'value', start: 'time', end: 'time', key: 'day', type: 'value' };
    for (const e of errors) {
      let input = null;
      if (e.index === null || e.index === undefined) input = top[e.field] ? byId(top[e.field]) : null;
      else {
        const row = this.rows[e.index];
        const name = e.field?.startsWith('metadata') ? 'note' : cell[e.field] || 'value';
        input = row?.inputs[name];
      }
      input?.setAttribute('aria-invalid', 'true');
    }
  }

  /** Posts the form once: a second submit while one is under way is ignored, and the retry of a submission
   * whose answer was lost carries the same Idempotency-Key, so it is one write with one answer. */
  async post() {
    if (this.posting) return;
    const box = byId('report-problem');
    box.hidden = true;
    const body = this.body();
    const missing = body.samples.flatMap((s, index) => (s.start ? [] : [{ index, field: 'start', message: 'enter a day and a time' }]));
    if (missing.length) {
      const problem = new Problem(0, { detail: 'Some tests have no day or time; nothing was sent.', errors: missing });
      this.markInvalid(missing);
      showProblem(box, problem, 'The report was not posted', 'test', fieldLabel);
      return;
    }
    const before = this.stored(body.syncIdentifier);
    const text = JSON.stringify(body);
    if (this.submission?.body !== text) this.submission = { body: text, key: crypto.randomUUID() };
    const submit = byId('report-form').querySelector('button[type=submit]');
    this.posting = true;
    submit.disabled = true;
    this.view.setStatus(`Posting ${body.syncIdentifier} version ${body.syncVersion}…`);
    try {
      const answer = await this.view.client.postReport(this.view.patient.id, body, this.submission.key);
      this.submission = null;
      this.markInvalid([]);
      this.showOutcome(answer, before);
      this.view.setStatus(`${body.syncIdentifier} version ${body.syncVersion}: ${answer.outcome}.`);
      this.view.reports = [...this.view.reports.filter((r) => !(r.syncIdentifier === answer.report.syncIdentifier
        && r.source === answer.report.source)), answer.report];
      this.load(answer.report, null, { quiet: true });
      await this.view.loadReports();
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      this.markInvalid(error.errors);
      showProblem(box, error, 'The server refused the report', 'test', fieldLabel);
      this.view.setStatus('The report was not posted.');
    } finally {
      this.posting = false;
      submit.disabled = false;
    }
  }

  showOutcome(answer, before) {
    const f = this.view.formats;
    const report = answer.report;
    const lines = [];
    const old = new Map((before?.samples || []).filter((s) => s.type === WALK).map((s) => [s.key, s]));
    const kept = [];
    for (const s of report.samples.filter((x) => x.type === WALK)) {
      const prior = old.get(s.key);
      old.delete(s.key);
      if (prior && prior.uuid === s.uuid) { kept.push(s); continue; }
      if (prior) {
        lines.push(el('li', { class: 'replaced' }, el('span', { class: 'tag', text: 'replaced' }),
          `${s.key}: ${f.meters.format(prior.value)} → ${f.meters.format(s.value)} (old sample ${prior.uuid} deleted, new sample ${s.uuid})`));
      } else {
        lines.push(el('li', { class: 'added' }, el('span', { class: 'tag', text: 'new' }), `${s.key}: ${f.meters.format(s.value)} (sample ${s.uuid})`));
      }
    }
    for (const s of old.values()) {
      lines.push(el('li', { class: 'deleted' }, el('span', { class: 'tag', text: 'removed' }), `${s.key}: ${f.meters.format(s.value)} (sample ${s.uuid} deleted)`));
    }
    const changed = lines.length;
    const summary = answer.outcome === 'ignored'
      ? `Version ${report.syncVersion} is already stored, so nothing changed (post a higher version to change it).`
      : `${changed} sample${changed === 1 ? '' : 's'} changed, ${kept.length} unchanged (same sample, same uuid).`;
    fill(byId('report-result'),
      el('p', {}, `${report.syncIdentifier} version ${report.syncVersion}: `, el('strong', { class: 'outcome', text: answer.outcome }),
        '. ', el('span', { class: 'change-count', dataset: { changed }, text: summary })),
      lines.length && answer.outcome !== 'ignored' ? el('ul', {}, lines) : null);
  }
}

/** Whether a date input's value is a finished date: a four-digit year from 1900 (typing 2020 passes 0002 and 0202). */
export function isCompleteDay(day) {
  const year = Number(day.slice(0, 4));
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && year >= 1900;
}

/** The form's names for the API's fields, so an error says "Distance (m)" where the server says "value". */
const LABELS = {
  syncIdentifier: 'Report', syncVersion: 'Version', weekStart: 'Week starting', timeZone: 'Time zone',
  value: 'Distance (m)', unit: 'Distance (m)', type: 'Distance (m)', start: 'Day and time', end: 'Day and time',
  key: 'Day', samples: 'Tests',
};

/** The label a person sees for `field` (metadata fields are the Notes column). */
export function fieldLabel(field) {
  if (field.startsWith('metadata')) return 'Notes';
  return LABELS[field] || LABELS[field.replace(/\[.*$/, '').split('.')[0]] || field;
}
