// Admin: care teams, their patients and their therapists (people with the team).
import { el, fill } from './dom.js';
import { actionForm, confirmButton, dataTable, field, showError } from './admin.js';

/** The care teams page: every team with its patients (each with a remove button) and therapists, a create form and an
 * add-patient form. */
export async function renderTeams(body, context) {
  const { client } = context;
  const [{ careTeams }, { patients }, { people }] = await Promise.all([client.call('GET', '/v1/care-teams'),
    client.call('GET', '/v1/patients'), client.call('GET', '/v1/people')]);
  if (context.stale()) return;
  const names = new Map(patients.map((p) => [p.id, p.displayName ? `${p.displayName} (${p.id})` : p.id]));
  const therapists = (team) => people.filter((p) => !p.deactivatedAt && p.careTeams.includes(team)).map((p) => p.displayName || p.id);
  const rows = careTeams.map((t) => el('tr', { dataset: { team: t.name } },
    el('th', { scope: 'row', text: t.name }),
    el('td', { class: 'team-patients' }, t.patients.length ? el('ul', { class: 'plain-list' }, t.patients.map((id) => el('li', { dataset: { patient: id } },
      `${names.get(id) || id} `,
      // A discharge: the team's therapists lose the patient at once (docs/api.md); the patient's data stays.
      confirmButton('Remove', `Confirm: remove from ${t.name}`, async () => {
        await client.call('DELETE', `/v1/care-teams/${encodeURIComponent(t.name)}/patients/${encodeURIComponent(id)}`);
        context.refresh();
      }, (error) => showError(body, error, 'Patient not removed'))))) : '—'),
    el('td', { class: 'team-therapists', text: therapists(t.name).join(', ') || '—' })));
  const create = actionForm({ id: 'admin-team-form', 'aria-label': 'New care team', 'data-submit': 'Create care team' }, [
    field('Name', { name: 'name', required: true, pattern: '[A-Za-z0-9._-]{1,100}', spellcheck: 'false', autocomplete: 'off' }),
  ], async (form) => {
    await client.call('POST', '/v1/care-teams', { body: { name: form.name.value.trim() } });
    context.refresh();
  }, { heading: 'Care team not created', labels: { name: 'Name' } });
  const add = careTeams.length && patients.length
    ? actionForm({ id: 'admin-team-add', 'aria-label': 'Add a patient to a care team', 'data-submit': 'Add patient' }, [
      el('label', {}, 'Care team ', el('select', { name: 'team' }, careTeams.map((t) => el('option', { value: t.name, text: t.name })))),
      el('label', {}, 'Patient ', el('select', { name: 'patient' }, patients.map((p) => el('option', { value: p.id, text: names.get(p.id) })))),
    ], async (form) => {
      await client.call('POST', `/v1/care-teams/${encodeURIComponent(form.team.value)}/patients`, { body: { patientId: form.patient.value } });
      context.refresh();
    }, { heading: 'Patient not added', labels: { patientId: 'Patient' } }) : null;
  fill(body,
    careTeams.length ? dataTable('Care teams, by name', ['Care team', 'Patients', 'Therapists'], rows, { id: 'admin-teams' })
      : el('p', { class: 'hint', text: 'No care team yet.' }),
    el('p', { class: 'hint', text: 'A therapist reaches the patients of their care teams; invite therapists on the People page. Removing a patient from a team ends its therapists\' access at once; the patient\'s data stays.' }),
    el('h3', { text: 'New care team' }), create,
    add ? el('h3', { text: 'Add a patient to a care team' }) : null, add);
}
