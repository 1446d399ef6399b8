// One patient: daily steps with source priority, six-minute walk tests, the report editor, live changes.
import { LiveFeed, Problem } from './api.js';
import { barChart, lineChart } from './chart.js';
import { byId, el, fill } from './dom.js';
import { showProblem } from './problems.js';
import { CarePanel, clearCarePanel } from './care-panel.js';
import { ReportEditor } from './report-editor.js';
import { Formats, addDays, dayIn, zonedInstant } from './time.js';

const WALK = 'sixMinuteWalkTestDistance';
const STEPS = 'stepCount';

/** Default order of sources: watches before phones, then the rest by name (FHIR daily totals count in this order too: DailyTotalReader.defaultPriority). */
export function defaultRank(source) {
  const s = source.toLowerCase();
  if (s.includes('watch')) return 0;
  if (s.includes('phone')) return 1;
  return 2;
}

/** `chosen` (the user's order) followed by the sources it lacks, in the default order. */
export function mergePriority(chosen, sources) {
  const rest = sources.filter((s) => !chosen.includes(s))
    .sort((a, b) => defaultRank(a) - defaultRank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return [...chosen, ...rest];
}

export class PatientView {
  constructor(session, patient, { setStatus, alert }) {
    this.session = session; this.client = session.client; this.patient = patient;
    this.setStatus = setStatus; this.alert = alert;
    this.formats = new Formats(patient.timeZone);
    this.stopper = new AbortController();
    this.listeners = [];
    this.priorityKey = `caresync.priority.${patient.id}`;
    this.priority = JSON.parse(sessionStorage.getItem(this.priorityKey) || '[]');
    this.steps = null;   // last statistics answer
    this.reports = [];
    this.editor = new ReportEditor(this);
    this.care = new CarePanel(this);
    this.feed = new LiveFeed(this.client, patient.id, [STEPS, WALK], {
      onPage: (page) => this.changed(page),
      onState: (state, error) => this.feedState(state, error),
    });
  }

  on(target, type, handler) {
    target.addEventListener(type, handler);
    this.listeners.push(() => target.removeEventListener(type, handler));
  }

  async start() {
    const p = this.patient;
    byId('patient-title').textContent = p.displayName ? `${p.displayName} (${p.id})` : p.id;
    byId('patient-zone').textContent = `Time zone ${p.timeZone}`;
    fill(byId('change-log'));
    fill(byId('report-result'));
    byId('report-problem').hidden = true;
    const today = dayIn(new Date(), p.timeZone);
    byId('steps-end').value = today;
    this.on(byId('steps-controls'), 'change', () => this.loadSteps());
    this.on(byId('steps-controls'), 'submit', (e) => { e.preventDefault(); this.loadSteps(); });
    this.resize = new ResizeObserver(() => this.drawCharts());
    this.resize.observe(byId('steps-chart'));
    this.editor.attach();
    this.care.attach();
    try {
      // Read the feed to its head first, so no change between the views' reads and the first poll is missed.
      await this.feed.catchUp(this.stopper.signal);
      await Promise.all([this.loadSteps(), this.loadReports(), this.care.load()]);
      this.editor.reset();
      this.setStatus(`Showing ${p.id}.`);
      this.feed.run();
    } catch (error) {
      // A patient that cannot be loaded shows nothing of it: no half-drawn charts above the refusal.
      if (!this.disposed) { this.feed.stop(); clearPatientScreen(); byId('patient').hidden = true; }
      this.fail(error, `Could not load ${p.id}`);
    }
  }

  /** Stops everything this view runs (reads, the live feed, timers) and removes the patient's data from the page. */
  dispose() {
    this.stopper.abort();
    this.feed.stop();
    clearTimeout(this.reload);
    this.resize?.disconnect();
    for (const off of this.listeners) off();
    this.editor.detach();
    this.steps = null;
    this.reports = [];
    clearPatientScreen();
  }

  /** Whether this view was disposed: late answers must not draw into the page. */
  get disposed() { return this.stopper.signal.aborted; }

  fail(error, heading) {
    if (this.stopper.signal.aborted || error.name === 'AbortError') return;
    if (!(error instanceof Problem)) throw error;
    showProblem(this.alert, error, heading);
    this.setStatus('');
  }

  // Steps ---------------------------------------------------------------------------------------

  stepsQuery() {
    const tz = this.patient.timeZone;
    const last = byId('steps-end').value || dayIn(new Date(), tz);
    const weeks = Number(byId('steps-weeks').value) || 4;
    const first = addDays(last, -(weeks * 7 - 1));
    return {
      type: STEPS, interval: 'day', timeZone: tz, options: 'cumulativeSum,separateBySource',
      start: zonedInstant(first, '00:00', tz).toISOString(),
      end: zonedInstant(addDays(last, 1), '00:00', tz).toISOString(),
    };
  }

  async loadSteps() {
    const query = this.stepsQuery();
    try {
      let answer = await this.client.statistics(this.patient.id, { ...query, priority: this.priority.join(',') }, this.stopper.signal);
      const sources = [...new Set(answer.buckets.flatMap((b) => (b.sources || []).map((s) => s.source)))];
      const merged = mergePriority(this.priority, sources);
      if (merged.join('\n') !== this.priority.join('\n')) {
        this.priority = merged;
        answer = await this.client.statistics(this.patient.id, { ...query, priority: this.priority.join(',') }, this.stopper.signal);
      }
      this.steps = { answer, sources: mergePriority(this.priority, sources).filter((s) => sources.includes(s)) };
      this.renderPriority();
      this.renderSteps();
    } catch (error) {
      this.fail(error, 'Could not load the daily steps');
    }
  }

  stepItems() {
    const tz = this.patient.timeZone;
    return this.steps.answer.buckets.map((b) => ({
      key: dayIn(new Date(b.start), tz), value: b.sum, sources: b.sources || [],
    }));
  }

  renderSteps() {
    if (this.disposed) return;
    const f = this.formats;
    const items = this.stepItems();
    const sources = this.steps.sources;
    const total = items.reduce((sum, i) => sum + (i.value || 0), 0);
    const counted = items.filter((i) => i.value !== null);
    byId('steps-caption').textContent = counted.length
      ? `${f.integer.format(total)} steps in ${items.length} days; ${this.priority.length ? `priority ${this.priority.join(' > ')}` : 'no source'}.`
      : `No steps recorded from ${f.day(items[0]?.key ?? byId('steps-end').value)} to ${f.day(byId('steps-end').value)}.`;
    const head = byId('steps-table').tHead;
    fill(head, el('tr', {},
      el('th', { scope: 'col', text: 'Day' }),
      el('th', { scope: 'col', text: 'Steps (by priority)' }),
      sources.map((s) => el('th', { scope: 'col', class: 'source-col' }, el('span', { class: 'source-name' }, breakable(s)),
        el('span', { class: 'hint', text: ' own count' })))));
    fill(byId('steps-table').tBodies[0], [...items].reverse().map((i) => el('tr', { dataset: { day: i.key } },
      el('th', { scope: 'row', text: f.day(i.key) }),
      el('td', { class: 'num', dataset: { value: i.value ?? '' }, text: i.value === null ? '—' : f.integer.format(i.value) }),
      sources.map((s) => {
        const own = i.sources.find((x) => x.source === s)?.sum;
        return el('td', { class: 'num', text: own === undefined || own === null ? '—' : f.integer.format(own) });
      }))));
    this.drawCharts();
  }

  renderPriority() {
    const list = byId('priority-list');
    const order = this.priority;
    fill(list, order.map((source, n) => el('li', {},
      el('span', { class: 'source-name', text: source }),
      el('span', { class: 'move' },
        el('button', { type: 'button', class: 'quiet small', 'aria-label': `Move ${source} up`, disabled: n === 0,
          onclick: () => this.move(n, -1) }, '↑'),
        el('button', { type: 'button', class: 'quiet small', 'aria-label': `Move ${source} down`, disabled: n === order.length - 1,
          onclick: () => this.move(n, 1) }, '↓')))));
  }

  move(n, delta) {
    const order = [...this.priority];
    const [item] = order.splice(n, 1);
    order.splice(n + delta, 0, item);
    this.priority = order;
    sessionStorage.setItem(this.priorityKey, JSON.stringify(order));
    this.setStatus(`${item} moved to position ${n + delta + 1}.`);
    this.loadSteps().then(() => {
      const buttons = byId('priority-list').querySelectorAll('li')[n + delta]?.querySelectorAll('button');
      (delta < 0 ? buttons?.[0] : buttons?.[1])?.focus();
    });
  }

  // Six-minute walk -----------------------------------------------------------------------------

  async loadReports() {
    try {
      const { reports } = await this.client.reports(this.patient.id, this.stopper.signal);
      this.reports = reports;
      this.renderWalk();
      this.editor.reportsChanged();
    } catch (error) {
      this.fail(error, 'Could not load the weekly reports');
    }
  }

  walkTests() {
    return this.reports.flatMap((r) => r.samples.filter((s) => s.type === WALK).map((s) => ({ report: r, sample: s })))
      .sort((a, b) => Date.parse(a.sample.start) - Date.parse(b.sample.start));
  }

  renderWalk() {
    if (this.disposed) return;
    const f = this.formats;
    const tests = this.walkTests();
    const own = this.session.who.source;
    byId('walk-caption').textContent = tests.length
      ? `${tests.length} test${tests.length === 1 ? '' : 's'} in ${this.reports.length} report${this.reports.length === 1 ? '' : 's'}.`
      : 'No six-minute walk test reported yet.';
    fill(byId('walk-table').tBodies[0], tests.map(({ report, sample }) => el('tr', { dataset: { uuid: sample.uuid } },
      el('th', { scope: 'row', text: f.at(sample.start) }),
      el('td', { class: 'num', dataset: { value: sample.value }, text: f.meters.format(sample.value) }),
      el('td', { class: 'report-cell' }, el('span', { class: 'report-name', text: report.syncIdentifier }),
        ` v${sample.syncVersion ?? ''}`,
        report.source === own ? null : el('span', { class: 'hint by' }, 'by ', breakable(sample.source))),
      el('td', { class: 'notes' }, metadataText(sample.metadata)),
      el('td', {}, report.source === own
        ? el('button', { type: 'button', class: 'quiet small', 'aria-label': `Edit the test of ${f.at(sample.start)}`,
          onclick: () => this.editor.load(report, sample.key) }, 'Edit')
        : null))));
    fill(byId('report-list'), this.reports.map((r) => this.reportItem(r, own)));
    this.drawCharts();
  }

  reportItem(report, own) {
    const f = this.formats;
    const mine = report.source === own;
    const actions = el('span', { class: 'actions' });
    const name = report.syncIdentifier;
    const item = el('li', { dataset: { report: name } },
      el('span', { class: 'report-name', text: name }),
      el('span', { class: 'hint', text: ` week of ${f.day(report.weekStart)} · version ${report.syncVersion} · `
        + `${report.samples.length} test${report.samples.length === 1 ? '' : 's'} · ${mine ? 'yours' : `by ${report.source}`}`
        + ` · updated ${f.at(report.updatedAt)}` }),
      actions);
    if (mine) {
      const normal = () => fill(actions,
        el('button', { type: 'button', class: 'quiet small', 'aria-label': `Edit ${name}`, onclick: () => this.editor.load(report) }, 'Edit'),
        el('button', { type: 'button', class: 'quiet small danger', 'aria-label': `Delete ${name}`, onclick: confirm }, 'Delete'));
      const confirm = () => {
        fill(actions,
          el('span', { text: `Delete ${name} and its tests? ` }),
          el('button', { type: 'button', class: 'small danger', onclick: () => this.deleteReport(report) }, 'Delete'),
          el('button', { type: 'button', class: 'quiet small', onclick: () => { normal(); actions.querySelector('button').focus(); } }, 'Cancel'));
        actions.querySelector('button').focus();
      };
      normal();
    }
    return item;
  }

  async deleteReport(report) {
    try {
      const answer = await this.client.deleteReport(this.patient.id, report.syncIdentifier);
      this.setStatus(`${report.syncIdentifier} ${answer.outcome}.`);
      fill(byId('report-result'), el('p', {}, `${report.syncIdentifier}: `, el('strong', { class: 'outcome', text: answer.outcome }),
        ` — its ${report.samples.length} test${report.samples.length === 1 ? '' : 's'} were deleted (each leaves a tombstone in the feed).`));
      await this.loadReports();
      this.editor.reset();
    } catch (error) {
      this.fail(error, `Could not delete ${report.syncIdentifier}`);
    }
  }

  // Charts --------------------------------------------------------------------------------------

  drawCharts() {
    if (this.disposed) return;
    const f = this.formats;
    const stepsBox = byId('steps-chart');
    const width = Math.floor(stepsBox.clientWidth);
    if (width <= 0) return;
    const height = width < 480 ? 200 : 240;
    if (this.steps) {
      const items = this.stepItems();
      fill(stepsBox, barChart({
        width, height, items, label: `Daily steps, ${items.length} days, bars by day; the table below lists the figures.`,
        format: (v) => f.integer.format(v),
        tickLabel: (i) => (items.length > 14 ? f.shortDay(i.key) : `${f.weekday.format(new Date(`${i.key}T12:00:00Z`))} ${f.shortDay(i.key)}`),
        describe: (i) => `${f.day(i.key)}: ${i.value === null ? 'no data' : `${f.integer.format(i.value)} steps`}`,
        yTitle: 'Steps (count)',
        xTitle: items.length ? `Day, ${f.dayRange(items[0].key, items[items.length - 1].key)} (${this.patient.timeZone})` : 'Day',
      }));
    }
    const walkBox = byId('walk-chart');
    const walkWidth = Math.floor(walkBox.clientWidth);
    if (walkWidth > 0) {
      const points = this.walkTests().map(({ report, sample }) => ({
        key: `${report.syncIdentifier}/${sample.key}`, time: Date.parse(sample.start), value: sample.value, start: sample.start,
      }));
      fill(walkBox, lineChart({
        width: walkWidth, height, points, label: `Six-minute walk distance over time, ${points.length} tests; the table below lists them.`,
        format: (v) => f.meters.format(v),
        timeLabel: (t) => f.instantDay.format(new Date(t)),
        timeTicks: [...new Set(points.map((p) => dayIn(new Date(p.time), this.patient.timeZone)))]
          .map((day) => zonedInstant(day, '12:00', this.patient.timeZone).getTime()),
        describe: (p) => `${f.at(p.start)}: ${f.meters.format(p.value)}`,
        yTitle: 'Distance (m)',
        xTitle: points.length ? `Test day, ${f.dayRange(dayIn(new Date(Math.min(...points.map((p) => p.time))), this.patient.timeZone),
          dayIn(new Date(Math.max(...points.map((p) => p.time))), this.patient.timeZone))} (${this.patient.timeZone})` : 'Test day',
      }));
    }
  }

  // Live ----------------------------------------------------------------------------------------

  feedState(state, error) {
    if (this.disposed) return;
    const live = byId('live');
    if (state === 'live') live.textContent = 'Live: updates as data arrives.';
    else if (state === 'catching up') live.textContent = 'Connecting to the change feed…';
    else live.textContent = `Live updates paused: ${error?.detail || error?.message || 'no connection'}; retrying.`;
  }

  changed(page) {
    if (this.disposed) return;
    const f = this.formats;
    const added = page.samples, deleted = page.deletedObjects;
    const describe = (s) => {
      const what = s.type === WALK ? 'walk test' : s.type === STEPS ? 'steps' : s.type;
      const value = s.value === undefined ? '' : s.type === WALK ? ` ${f.meters.format(s.value)}` : ` ${f.number.format(s.value)}`;
      const id = s.syncIdentifier ? ` ${s.syncIdentifier}${s.syncVersion === null ? '' : ` v${s.syncVersion}`}` : '';
      return `${what}${value}${id} from ${s.source} (${s.uuid})`;
    };
    const lines = [
      ...deleted.slice(0, 20).map((d) => el('li', { class: 'deleted' }, el('span', { class: 'tag', text: 'deleted' }), describe(d))),
      ...added.slice(0, 20).map((s) => el('li', { class: 'added' }, el('span', { class: 'tag', text: 'new' }), describe(s))),
    ];
    const more = added.length + deleted.length - lines.length;
    const entry = el('li', { class: 'change', dataset: { deleted: deleted.length, added: added.length } },
      el('p', { class: 'change-summary' },
        el('time', { text: f.at(new Date()) }), ' ',
        `${deleted.length} deleted object${deleted.length === 1 ? '' : 's'}, ${added.length} new sample${added.length === 1 ? '' : 's'}`),
      el('ul', {}, lines, more > 0 ? el('li', { text: `and ${more} more` }) : null));
    const log = byId('change-log');
    log.prepend(entry);
    while (log.children.length > 10) log.lastElementChild.remove();
    clearTimeout(this.reload);
    this.reload = setTimeout(() => {
      const kinds = new Set([...added, ...deleted].map((s) => s.type));
      if (kinds.has(STEPS)) this.loadSteps();
      if (kinds.has(WALK)) this.loadReports();
    }, 200);
  }
}

/** Empties every element of the patient screen that shows a patient's data (sign-out, another token, a failed load). */
export function clearPatientScreen() {
  for (const id of ['patient-title', 'patient-zone', 'live', 'steps-caption', 'walk-caption', 'report-mode']) byId(id).textContent = '';
  for (const id of ['steps-chart', 'walk-chart', 'priority-list', 'report-list', 'change-log', 'report-result', 'report-problem', 'patient-devices', 'patient-copy']) fill(byId(id));
  byId('report-problem').hidden = true;
  fill(byId('steps-table').tHead);
  for (const id of ['steps-table', 'walk-table', 'tests']) fill(byId(id).tBodies[0]);
  for (const input of byId('report-form').querySelectorAll('input')) input.value = '';
  byId('steps-end').value = '';
  clearCarePanel();
}

/** A source name with line-break opportunities after its dots (as text nodes and <wbr>). */
export function breakable(name) {
  return name.split('.').flatMap((part, n, all) => (n < all.length - 1 ? [`${part}.`, el('wbr')] : [part]));
}

/** Metadata as "key: value" text; `note` first. */
export function metadataText(metadata = {}) {
  const keys = Object.keys(metadata).sort((a, b) => (a === 'note' ? -1 : b === 'note' ? 1 : a < b ? -1 : 1));
  return keys.map((k) => (k === 'note' ? String(metadata[k]) : `${k}: ${String(metadata[k])}`)).join('; ');
}
