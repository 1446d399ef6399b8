// The triage list: the patients of the therapist's care teams, who needs attention first (docs/status.md).
import { Problem } from './api.js';
import { byId, el, fill } from './dom.js';

/** How many patients' monitoring and goals are asked for at once. */
const PARALLEL = 6;

/** The rows of the list: each team's status (sorted by the server), merged, each with its monitoring and goals. */
export async function loadTriage(client, teams, only) {
  const seen = new Map();
  for (const team of teams) {
    const answer = await client.careTeamStatus(team, only ? { only } : undefined);
    for (const status of answer.patients) {
      if (!seen.has(status.patient)) seen.set(status.patient, { status, teams: [], client });
      seen.get(status.patient).teams.push(team);
    }
  }
  const rows = [...seen.values()];
  await eachLimited(rows, PARALLEL, async (row) => {
    const id = row.status.patient;
    [row.monitoring, row.goals] = await Promise.all([
      client.monitoring(id).catch(orNull), client.goals(id).catch(orNull)]);
  });
  // Highest attention first, then by id: the server's order within a team, kept across teams.
  rows.sort((a, b) => b.status.attention.score - a.status.attention.score
    || (a.status.patient < b.status.patient ? -1 : a.status.patient > b.status.patient ? 1 : 0));
  return rows;
}

/** A figure the caller may not see (404, 403) is shown as missing, not as an error of the whole list. */
function orNull(error) {
  if (error instanceof Problem && (error.status === 404 || error.status === 403)) return null;
  throw error;
}

async function eachLimited(items, limit, work) {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  });
  await Promise.all(runners);
}

/** The open episode's period in progress, or null. */
export function currentPeriod(monitoring) {
  const episode = monitoring?.episodes?.find((e) => e.open);
  return episode?.periods?.find((p) => p.state === 'inProgress') || null;
}

/** Fills the triage table's body with `rows`, filtered by the text in `filter` (patient id or name, or source). */
export function renderTriage(rows, filter) {
  const needle = filter.trim().toLowerCase();
  const shown = rows.filter((row) => !needle || row.status.patient.toLowerCase().includes(needle)
    || (row.status.displayName || '').toLowerCase().includes(needle)
    || row.status.sources.some((s) => s.source.toLowerCase().includes(needle)));
  fill(byId('triage-body'), shown.map(rowElement));
  // The empty state of a filter; the empty state of a team without patients is #patients-empty.
  byId('triage-none').hidden = shown.length > 0 || !byId('patients-empty').hidden;
  return shown.length;
}

function rowElement(row) {
  const s = row.status;
  return el('tr', { dataset: { patient: s.patient, score: s.attention.score } },
    el('th', { scope: 'row' },
      el('a', { href: `#patient/${encodeURIComponent(s.patient)}`, class: 'patient-link' },
        el('span', { class: 'patient-id', text: s.displayName || s.patient }),
        s.displayName ? el('span', { class: 'hint patient-code', text: s.patient }) : null),
      el('span', { class: 'hint', text: s.timeZone })),
    el('td', { class: 'num attention', dataset: { value: s.attention.score } }, attentionText(s.attention), alertsList(row)),
    el('td', { class: 'devices' }, devicesCell(s)),
    el('td', { class: 'period' }, periodCell(currentPeriod(row.monitoring), row.monitoring)),
    el('td', { class: 'goal' }, goalCell(row.goals)),
    el('td', { class: 'walk' }, walkCell(s.walkTest)));
}

function attentionText(attention) {
  const reasons = [];
  if (attention.noDevice) reasons.push('no device');
  if (attention.silentSources) reasons.push(`${attention.silentSources} silent`);
  if (attention.daysWithoutDataLastWeek) reasons.push(`${attention.daysWithoutDataLastWeek} d without data`);
  if (attention.walkDeclined) reasons.push('walk declined');
  return [el('strong', { text: String(attention.score) }),
    reasons.length ? el('span', { class: 'hint reasons', text: reasons.join(' · ') }) : null];
}

/** What each alert rule says in the list (docs/alerts.md). */
const RULES = { deviceSilent: 'Device silent', periodCannotReach16: 'Period cannot reach 16 days',
  periodBehindPace: 'Period behind pace', weeklyStepsDrop: 'Weekly steps dropped', walkTestDrop: 'Walk test dropped' };

/** What an alert is about, in words: a silent device by the name it enrolled with, else the subject as the server gives it. */
function subjectName(alert, status) {
  if (alert.rule !== 'deviceSilent') return alert.subject;
  return status.sources.find((s) => s.source === alert.subject)?.displayName || alert.subject;
}

/** The patient's unresolved alerts, each with Acknowledge (while open) and Resolve; an answer updates the row in place. */
function alertsList(row) {
  const alerts = row.status.alerts || [];
  if (!alerts.length) return null;
  const list = el('ul', { class: 'alerts' });
  const draw = () => fill(list, (row.status.alerts || []).filter((a) => a.state !== 'resolved').map((alert) => {
    const act = (verb, label) => el('button', { type: 'button', class: 'quiet small', text: label,
      'aria-label': `${label} the alert ${RULES[alert.rule] || alert.rule} of ${row.status.displayName || row.status.patient}`,
      onclick: async (event) => {
        event.currentTarget.disabled = true;
        try {
          const updated = await row.client.call('POST',
            `/v1/patients/${encodeURIComponent(row.status.patient)}/alerts/${encodeURIComponent(alert.id)}/${verb}`);
          row.status.alerts = row.status.alerts.map((a) => (a.id === updated.id ? updated : a));
          draw();
        } catch (error) {
          event.currentTarget.disabled = false;
          event.currentTarget.title = error.detail || String(error);
        }
      } });
    return el('li', { class: `alert-item ${alert.state}`, dataset: { alert: alert.id, state: alert.state } },
      el('span', { text: `${RULES[alert.rule] || alert.rule}${alert.subject ? ` (${subjectName(alert, row.status)})` : ''}` }),
      alert.state === 'acknowledged' ? el('span', { class: 'hint', text: ' acknowledged' }) : act('acknowledge', 'Acknowledge'),
      act('resolve', 'Resolve'));
  }));
  draw();
  return list;
}

function devicesCell(status) {
  if (!status.sources.length) return el('span', { class: 'hint', text: 'No device enrolled' });
  const zone = new Intl.DateTimeFormat(undefined, {
    timeZone: status.timeZone, year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit',
    timeZoneName: 'short' });
  return el('ul', { class: 'sources' }, status.sources.map((source) => el('li',
    { class: source.silent ? 'silent' : 'heard', dataset: { source: source.source, last: source.lastReceivedAt || '', active: String(source.active) } },
    el('span', { class: 'source-name', title: source.source, text: source.displayName || source.source }),
    el('span', { class: 'hint', text: source.lastReceivedAt ? `last sync ${zone.format(new Date(source.lastReceivedAt))}` : 'never synced' }),
    source.active ? null : el('span', { class: 'hint', text: ' · revoked or expired' }),
    source.silent ? el('span', { class: 'flag', text: 'silent' }) : null)));
}

function periodCell(period, monitoring) {
  if (!monitoring) return el('span', { class: 'hint', text: 'Not available' });
  if (!period) return el('span', { class: 'hint', text: 'Not monitoring' });
  const pace = !period.canReach16 ? 'cannot reach 16' : period.onPace ? 'on pace' : 'behind pace';
  return el('span', { dataset: { days: period.daysWithData, left: period.daysLeft, pace } },
    el('strong', { text: `${period.daysWithData} days` }),
    el('span', { class: 'hint', text: ` of 16 · ${period.daysLeft} left · ` }),
    el('span', { class: period.onPace && period.canReach16 ? 'pace ok' : 'pace behind', text: pace }));
}

function goalCell(goals) {
  const steps = goals?.goals?.find((g) => g.kind === 'dailySteps');
  if (!steps) return el('span', { class: 'hint', text: 'No step goal' });
  const a = steps.adherence;
  if (!a || a.daysMet === null) return el('span', { class: 'hint', text: `${steps.target} steps a day` });
  return el('span', { dataset: { met: a.daysMet, days: a.days } },
    el('strong', { text: `${a.daysMet} of ${a.days} days` }),
    el('span', { class: 'hint', text: ` at ${new Intl.NumberFormat().format(steps.target)} steps` }));
}

function walkCell(walk) {
  if (!walk) return el('span', { class: 'hint', text: 'No walk test' });
  const meters = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'meter', maximumFractionDigits: 1 });
  const change = walk.change === null || walk.change === undefined ? null
    : `${walk.change > 0 ? '+' : ''}${meters.format(walk.change)}`;
  return [el('strong', { text: meters.format(walk.meters) }),
    change ? el('span', { class: walk.change < 0 ? 'hint declined' : 'hint', text: ` (${change})` }) : null];
}

/** Fills the worksheet form's care teams and this month; remembers nothing between sign-ins. */
export function prepareWorksheet(teams) {
  fill(byId('worksheet-team'), teams.map((team) => el('option', { value: team, text: team })));
  if (!byId('worksheet-month').value) byId('worksheet-month').value = new Date().toISOString().slice(0, 7);
}

let worksheetURL = null;

/** Fetches the chosen team's worksheet as CSV and hands it to the browser as a download. */
export async function downloadWorksheet(client) {
  const team = byId('worksheet-team').value, month = byId('worksheet-month').value;
  const csv = await client.worksheetCSV(team, month);
  if (worksheetURL) URL.revokeObjectURL(worksheetURL);
  worksheetURL = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
  const link = byId('worksheet-link');
  link.href = worksheetURL;
  link.download = `caresync-worksheet-${team}-${month}.csv`;
  link.textContent = `Worksheet ${team} ${month} (CSV)`;
  link.hidden = false;
  link.click();
}

/** Forgets the last download (sign-out). */
export function clearWorksheet() {
  if (worksheetURL) URL.revokeObjectURL(worksheetURL);
  worksheetURL = null;
  const link = byId('worksheet-link');
  link.hidden = true;
  link.removeAttribute('href');
  link.textContent = '';
  fill(byId('worksheet-team'));
}
