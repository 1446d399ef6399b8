// The patient page's monitoring episode and periods, review minutes and goals (docs/monitoring.md, docs/api.md).
import { Problem } from './api.js';
import { byId, el, fill } from './dom.js';
import { showProblem } from './problems.js';
import { loadDevices } from './admin-patients.js';
import { preparePatientCopy } from './patient-copy.js';
import { dayIn } from './time.js';

const CATEGORY = { dataReview: 'Data review', patientCall: 'Patient call', messaging: 'Messaging', carePlan: 'Care plan',
  coordination: 'Coordination' };
const BAND = { under10: 'under 10 minutes', '10to19': '10–19 minutes', '20to39': '20–39 minutes', '40plus': '40 minutes or more' };
const STATE = { inProgress: 'in progress', complete: 'complete', endedEarly: 'ended early' };
/** The form's names for the API's fields. */
const LABELS = { startDay: 'Start day', endDay: 'End day', day: 'Day', minutes: 'Minutes', category: 'Kind', target: 'Target' };

/** The monitoring, minutes and goals panel of one PatientView. */
export class CarePanel {
  constructor(view) { this.view = view; this.monitoring = null; }

  get client() { return this.view.client; }
  get id() { return this.view.patient.id; }

  /** Wires the forms (removed again when the view is disposed). */
  attach() {
    const today = dayIn(new Date(), this.view.patient.timeZone);
    byId('minutes-day').value = today;
    byId('episode-day').value = today;
    this.view.on(byId('episode-form'), 'submit', (e) => { e.preventDefault(); this.episode(); });
    this.view.on(byId('minutes-form'), 'submit', (e) => { e.preventDefault(); this.logMinutes(); });
    this.view.on(byId('goal-form'), 'submit', (e) => { e.preventDefault(); this.saveGoals(); });
    this.view.on(byId('copy-button'), 'click', () => this.prepareCopy());
  }

  /** Exports the patient's data and links the files; the button waits meanwhile. */
  async prepareCopy() {
    const button = byId('copy-button');
    button.disabled = true;
    try {
      await preparePatientCopy(this.client, this.view.patient, byId('patient-copy'), this.view.stopper.signal);
    } catch (error) {
      if (error.name !== 'AbortError') showProblem(byId('care-problem'), error, 'The copy could not be prepared');
    } finally {
      button.disabled = false;
    }
  }

  /** Loads and shows all three. */
  async load() {
    await Promise.all([this.loadMonitoring(), this.loadMinutes(), this.loadGoals(),
      loadDevices(byId('patient-devices'), this.client, this.view.patient, { admin: false })]);
  }

  async loadMonitoring() {
    this.monitoring = await this.client.monitoring(this.id, this.view.stopper.signal);
    if (this.view.disposed) return;
    const open = this.monitoring.episodes.find((e) => e.open);
    const f = this.view.formats;
    byId('episode-state').textContent = open ? `Monitoring since ${f.day(open.startDay)}.`
      : this.monitoring.episodes.length ? 'Not monitoring now; earlier episodes are listed below.' : 'Not monitoring.';
    byId('episode-day-label').textContent = open ? 'Last monitored day' : 'Start day';
    byId('episode-button').textContent = open ? 'End monitoring' : 'Start monitoring';
    const periods = this.monitoring.episodes.flatMap((e) => e.periods.map((p) => ({ episode: e, period: p }))).reverse();
    fill(byId('periods').tBodies[0], periods.map(({ episode, period }) => el('tr',
      { dataset: { episode: episode.id, period: period.number, days: period.daysWithData, left: period.daysLeft } },
      el('th', { scope: 'row', text: `${episode.id}.${period.number} (${STATE[period.state] || period.state})` }),
      el('td', { text: f.dayRange(period.firstDay, period.lastDay) }),
      el('td', { class: 'num', text: String(period.daysWithData) }),
      el('td', { class: 'num', text: String(period.daysLeft) }),
      el('td', { text: period.state !== 'inProgress' ? (period.daysWithData >= 16 ? '16 reached' : 'under 16')
        : !period.canReach16 ? 'cannot reach 16' : period.onPace ? 'on pace' : 'behind pace' }))));
    byId('periods-empty').hidden = periods.length > 0;
  }

  async loadMinutes() {
    const answer = await this.client.minutes(this.id, this.view.stopper.signal);
    if (this.view.disposed) return;
    const f = this.view.formats;
    byId('minutes-total').textContent = `${answer.total} minutes in ${answer.month} (${BAND[answer.band] || answer.band}).`;
    byId('minutes-total').dataset.total = String(answer.total);
    fill(byId('minutes-list'), answer.entries.map((e) => el('li', { dataset: { minutes: e.minutes } },
      `${f.day(e.day)}: ${e.minutes} min, ${CATEGORY[e.category] || e.category}`)));
    byId('minutes-empty').hidden = answer.entries.length > 0;
  }

  async loadGoals() {
    const { goals } = await this.client.goals(this.id, this.view.stopper.signal);
    if (this.view.disposed) return;
    const f = this.view.formats;
    fill(byId('goal-list'), goals.map((g) => {
      const a = g.adherence;
      const text = g.kind === 'dailySteps'
        ? `${f.integer.format(g.target)} steps a day${a && a.daysMet !== null
          ? `: ${a.daysMet} of ${a.days} days met (${f.dayRange(a.first, a.last)})` : ''}`
        : `Six-minute walk ${f.meters.format(g.target)}: latest ${a?.latest === null || a?.latest === undefined ? '—' : f.meters.format(a.latest)}`;
      return el('li', { dataset: { kind: g.kind, target: g.target } }, text);
    }));
    byId('goals-empty').hidden = goals.length > 0;
    for (const g of goals) byId(g.kind === 'dailySteps' ? 'goal-steps' : 'goal-walk').value = String(g.target);
  }

  /** Starts monitoring, or ends the open episode on the chosen day. */
  async episode() {
    const day = byId('episode-day').value;
    const open = this.monitoring?.episodes.find((e) => e.open);
    await this.act(open ? 'Could not end monitoring' : 'Could not start monitoring', async () => {
      if (open) await this.client.endEpisode(this.id, day);
      else await this.client.startEpisode(this.id, day);
      this.view.setStatus(open ? 'Monitoring ended.' : 'Monitoring started.');
      await this.loadMonitoring();
    });
  }

  async logMinutes() {
    const body = { day: byId('minutes-day').value, minutes: Number(byId('minutes-count').value),
      category: byId('minutes-category').value };
    await this.act('The minutes were not logged', async () => {
      await this.client.logMinutes(this.id, body);
      byId('minutes-count').value = '';
      this.view.setStatus(`${body.minutes} minutes logged.`);
      await this.loadMinutes();
    });
  }

  async saveGoals() {
    const goals = [['dailySteps', byId('goal-steps').value], ['sixMinuteWalk', byId('goal-walk').value]]
      .filter(([, v]) => v.trim() !== '');
    await this.act('The goals were not saved', async () => {
      for (const [kind, value] of goals) await this.client.setGoal(this.id, kind, Number(value));
      this.view.setStatus('Goals saved.');
      await this.loadGoals();
    });
  }

  /** Runs `work`, showing a refusal in the panel with the form's field names. */
  async act(heading, work) {
    const box = byId('care-problem');
    box.hidden = true;
    try {
      await work();
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      showProblem(box, error, heading, 'entry', (field) => LABELS[field] || field);
    }
  }
}

/** Empties the panel (sign-out, another patient). */
export function clearCarePanel() {
  for (const id of ['episode-state', 'minutes-total']) byId(id).textContent = '';
  for (const id of ['minutes-list', 'goal-list', 'care-problem']) fill(byId(id));
  fill(byId('periods').tBodies[0]);
  byId('care-problem').hidden = true;
  for (const id of ['periods-empty', 'minutes-empty', 'goals-empty']) byId(id).hidden = true;
  for (const id of ['goal-steps', 'goal-walk', 'minutes-count']) byId(id).value = '';
}
