// Admin: patients (create, display name, time zone) and one patient's devices (enrol, last sync, revoke).
import { el, fill } from './dom.js';
import { actionForm, confirmButton, dataTable, field, showError, when } from './admin.js';

const LABELS = { id: 'Patient id', displayName: 'Name', timeZone: 'Time zone', patientId: 'Patient id' };
const enc = encodeURIComponent;

/** The time zones this browser knows, for the time zone inputs' suggestions. */
function zoneList() {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return el('datalist', { id: 'admin-zones' }, zones.map((z) => el('option', { value: z })));
}

/** The patients page: the list, a create form, and the selected patient's edit form and devices. */
export async function renderPatients(body, context) {
  const { client } = context;
  const [{ patients }, { careTeams }] = await Promise.all([client.call('GET', '/v1/patients'), client.call('GET', '/v1/care-teams')]);
  if (context.stale()) return;
  const teamsOf = (id) => careTeams.filter((t) => t.patients.includes(id)).map((t) => t.name);
  const detail = el('div', { id: 'admin-patient-detail' });
  const rows = patients.map((p) => el('tr', { dataset: { patient: p.id } },
    el('th', { scope: 'row', text: p.id }),
    el('td', { class: 'patient-name', text: p.displayName || '—' }),
    el('td', { text: p.timeZone }),
    el('td', { text: teamsOf(p.id).join(', ') || '—' }),
    el('td', { text: when(p.createdAt) }),
    el('td', {}, el('button', { type: 'button', class: 'quiet', text: 'Manage', 'aria-label': `Manage ${p.id}`,
      onclick: () => showPatient(detail, context, p, careTeams) }))));
  const create = actionForm({ id: 'admin-patient-form', 'aria-label': 'New patient', 'data-submit': 'Create patient' }, [
    field('Patient id', { name: 'id', required: true, pattern: '[A-Za-z0-9._-]{1,64}', spellcheck: 'false', autocomplete: 'off' }),
    field('Name', { name: 'displayName', maxlength: '100', autocomplete: 'off' }),
    field('Time zone', { name: 'timeZone', list: 'admin-zones', value: Intl.DateTimeFormat().resolvedOptions().timeZone }),
    el('label', {}, 'Care team ', el('select', { name: 'team' }, el('option', { value: '', text: 'None' }),
      careTeams.map((t) => el('option', { value: t.name, text: t.name })))),
  ], async (form) => {
    const v = Object.fromEntries(new FormData(form));
    const patient = await client.call('POST', '/v1/patients', { body: { id: v.id.trim(), displayName: v.displayName, timeZone: v.timeZone || undefined } });
    if (v.team) await client.call('POST', `/v1/care-teams/${enc(v.team)}/patients`, { body: { patientId: patient.id } });
    context.refresh();
  }, { heading: 'Patient not created', labels: LABELS });
  fill(body, zoneList(),
    patients.length ? dataTable('Every patient, by id', ['Patient', 'Name', 'Time zone', 'Care teams', 'Created', ''], rows, { id: 'admin-patients' })
      : el('p', { class: 'hint', text: 'No patient yet: create the first below.' }),
    el('h3', { text: 'New patient' }), create, detail);
}

/** One patient: the edit form, devices and pending enrolments, and a button that enrols a device. */
async function showPatient(detail, context, patient, careTeams) {
  const { client } = context;
  const path = `/v1/patients/${enc(patient.id)}`;
  const edit = actionForm({ id: 'admin-patient-edit', 'aria-label': `Edit ${patient.id}` }, [
    field('Name', { name: 'displayName', maxlength: '100', value: patient.displayName, autocomplete: 'off' }),
    field('Time zone', { name: 'timeZone', list: 'admin-zones', value: patient.timeZone, required: true }),
  ], async (form) => {
    const v = Object.fromEntries(new FormData(form));
    await client.call('PATCH', path, { body: { displayName: v.displayName, timeZone: v.timeZone } });
    context.refresh();
  }, { heading: 'Patient not saved', labels: LABELS });
  const join = careTeams.filter((t) => !t.patients.includes(patient.id));
  const addTeam = join.length ? actionForm({ 'aria-label': `Add ${patient.id} to a care team`, 'data-submit': 'Add to team' }, [
    el('label', {}, 'Care team ', el('select', { name: 'team' }, join.map((t) => el('option', { value: t.name, text: t.name })))),
  ], async (form) => {
    await client.call('POST', `/v1/care-teams/${enc(form.team.value)}/patients`, { body: { patientId: patient.id } });
    context.refresh();
  }, { heading: 'Not added' }) : null;
  const devices = el('div', { id: 'admin-devices' });
  fill(detail, el('h3', { id: 'admin-patient-title', text: `${patient.displayName || patient.id} (${patient.id})` }),
    edit, addTeam, el('h4', { text: 'Devices' }), devices);
  detail.scrollIntoView({ block: 'start' });
  await loadDevices(devices, client, patient).catch((error) => showError(devices, error, 'Devices could not be loaded'));
}

/**
 * The patient's enrolled devices with when each last sent samples and, for an admin, its token's state and a revoke
 * button; pending codes; enrol.
 */
export async function loadDevices(box, client, patient, { admin = true } = {}) {
  const path = `/v1/patients/${enc(patient.id)}`;
  const [{ devices }, { enrolments }, tokens] = await Promise.all([client.call('GET', `${path}/devices`),
    client.call('GET', `${path}/enrolments`), admin ? client.call('GET', '/v1/tokens').then((t) => t.tokens) : null]);
  const byToken = new Map((tokens || []).map((t) => [t.id, t]));
  const reload = () => loadDevices(box, client, patient, { admin }).catch((error) => showError(box, error, 'Devices could not be loaded'));
  const rows = devices.map((d) => {
    const token = byToken.get(d.tokenId);
    const state = !admin ? null : !token ? 'removed' : token.revokedAt ? `revoked ${when(token.revokedAt)}` : 'active';
    return el('tr', { dataset: { source: d.source, token: d.tokenId } },
      el('th', { scope: 'row', text: d.displayName }), el('td', {}, el('code', { text: d.source })),
      el('td', { text: when(d.enrolledAt) }), el('td', { class: 'device-seen', dataset: { last: d.lastReceivedAt || '' }, text: when(d.lastReceivedAt) }),
      admin ? el('td', { class: 'device-state', text: state }) : null,
      admin ? el('td', {}, token && !token.revokedAt ? confirmButton('Revoke', `Confirm: revoke ${d.displayName}`, async () => {
        await client.call('DELETE', `/v1/tokens/${enc(d.tokenId)}`);
        await reload();
      }, (error) => showError(box, error, 'Not revoked')) : null) : null);
  });
  const headers = admin ? ['Device', 'Source', 'Enrolled', 'Last sync', 'State', ''] : ['Device', 'Source', 'Enrolled', 'Last sync'];
  const pending = enrolments.map((e) => el('li', {}, `Code made ${when(e.createdAt)}, valid until ${when(e.expiresAt)} `,
    confirmButton('Cancel', 'Confirm: cancel the code', async () => {
      await client.call('DELETE', `${path}/enrolments/${enc(e.id)}`);
      await reload();
    }, (error) => showError(box, error, 'Not cancelled'))));
  const shown = el('div', { class: 'enrolment' });
  const enrol = el('button', { type: 'button', id: 'enrol-device', text: 'Enrol a device' });
  enrol.addEventListener('click', async () => {
    try { showEnrolment(shown, await client.call('POST', `${path}/enrolments`)); } catch (error) { showError(box, error, 'No code made'); }
  });
  fill(box,
    devices.length ? dataTable('Enrolled devices', headers, rows, { id: 'device-table' })
      : el('p', { class: 'hint', text: 'No device enrolled yet.' }),
    pending.length ? el('ul', { class: 'plain-list', 'aria-label': 'Pending enrolment codes' }, pending) : null,
    enrol, shown);
}

/** A new enrolment: its QR code, the code in readable groups, the link and how long it works. */
export function showEnrolment(box, enrolment) {
  const minutes = Math.round((new Date(enrolment.expiresAt) - new Date(enrolment.createdAt)) / 60000);
  fill(box,
    el('img', { class: 'qr', alt: `QR code of the enrolment link for ${enrolment.patient}`, width: '240', height: '240',
      src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}` }),
    el('p', {}, 'Code ', el('code', { class: 'enrolment-code', text: enrolment.code })),
    el('p', { class: 'hint', text: `Scan it with the patient's phone, or type the code in the CareSync app. It works once, for ${minutes} minutes (until ${when(enrolment.expiresAt)}), and is not shown again.` }),
    el('p', { class: 'hint' }, 'Link: ', el('code', { class: 'enrolment-url', text: enrolment.url })));
}
