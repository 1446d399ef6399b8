// Admin: people (invite, re-invite, deactivate) and one person's sessions and passkeys.
import { el, fill } from './dom.js';
import { actionForm, confirmButton, dataTable, field, onceBox, showError, when } from './admin.js';

const LABELS = { role: 'Role', careTeams: 'Care teams', displayName: 'Name', personId: 'Person' };
const enc = encodeURIComponent;

/** The people page: everyone with a role, an invite form, and the selected person's sessions and passkeys. */
export async function renderPeople(body, context) {
  const { client, person: me } = context;
  const [{ people }, { careTeams }] = await Promise.all([client.call('GET', '/v1/people'), client.call('GET', '/v1/care-teams')]);
  if (context.stale()) return;
  const detail = el('div', { id: 'admin-person-detail' });
  const shown = el('div', { id: 'admin-invitation' });
  const invite = async (draft) => {
    const answer = await client.call('POST', '/v1/people/invitations', { body: draft });
    fill(shown, onceBox(`Invitation for ${answer.invitation.displayName || 'the new person'}`, answer.link,
      `Send this link to the person yourself; it is shown only now, works once and expires ${when(answer.invitation.expiresAt)}.`,
      { id: 'invitation-link' }));
  };
  const rows = people.map((p) => el('tr', { dataset: { person: p.id } },
    el('th', { scope: 'row', text: p.displayName || p.id }),
    el('td', { text: p.role }),
    el('td', { text: p.careTeams.join(', ') || '—' }),
    el('td', { text: when(p.createdAt) }),
    el('td', { class: 'person-state', text: p.deactivatedAt ? `deactivated ${when(p.deactivatedAt)}` : 'active' }),
    el('td', {},
      el('button', { type: 'button', class: 'quiet', text: 'Sessions and passkeys', 'aria-label': `Sessions and passkeys of ${p.displayName || p.id}`,
        onclick: () => showPerson(detail, client, p, me) }),
      p.deactivatedAt ? null : el('button', { type: 'button', class: 'quiet', text: 'Re-invite', 'aria-label': `Re-invite ${p.displayName || p.id}`,
        onclick: () => invite({ role: p.role, careTeams: p.careTeams, displayName: p.displayName, personId: p.id }).catch((e) => showError(body, e, 'No invitation made')) }),
      p.deactivatedAt || p.id === me?.id ? null : confirmButton('Deactivate', `Confirm: deactivate ${p.displayName || p.id}`, async () => {
        await client.call('POST', `/v1/people/${enc(p.id)}/deactivate`);
        context.refresh();
      }, (error) => showError(body, error, 'Not deactivated')))));
  const teamBoxes = careTeams.map((t) => el('label', { class: 'check' }, el('input', { type: 'checkbox', name: 'careTeams', value: t.name }), ` ${t.name}`));
  const form = actionForm({ id: 'admin-invite-form', 'aria-label': 'Invite a person', 'data-submit': 'Make invitation link' }, [
    field('Name', { name: 'displayName', maxlength: '200', autocomplete: 'off' }),
    el('label', {}, 'Role ', el('select', { name: 'role' }, el('option', { value: 'therapist', text: 'Therapist' }), el('option', { value: 'admin', text: 'Admin' }))),
    el('fieldset', { class: 'teams' }, el('legend', { text: 'Care teams (therapists)' }), teamBoxes.length ? teamBoxes : el('span', { class: 'hint', text: 'No care team yet.' })),
  ], async (f) => {
    const teams = [...f.querySelectorAll('input[name=careTeams]:checked')].map((c) => c.value);
    await invite({ role: f.role.value, careTeams: f.role.value === 'admin' ? [] : teams, displayName: f.displayName.value });
  }, { heading: 'No invitation made', labels: LABELS });
  fill(body,
    dataTable('People who sign in, by creation', ['Person', 'Role', 'Care teams', 'Created', 'State', ''], rows, { id: 'admin-people' }),
    el('h3', { text: 'Invite a person' }), form, shown, detail);
}

/** One person's sessions (end one) and passkeys (remove one). */
async function showPerson(detail, client, person, me) {
  const path = `/v1/people/${enc(person.id)}`;
  const reload = () => showPerson(detail, client, person, me);
  fill(detail, el('h3', { id: 'admin-person-title', text: person.displayName || person.id }), el('p', { class: 'hint', text: 'Loading…' }));
  try {
    const [{ sessions }, keys] = await Promise.all([client.call('GET', `${path}/sessions`),
      client.call('GET', `${path}/passkeys`).catch((error) => (error.status === 404 ? { passkeys: null } : Promise.reject(error)))]);
    const open = sessions.filter((s) => !s.endedAt);
    const sessionRows = open.map((s) => el('tr', { dataset: { session: s.id } },
      el('td', { text: when(s.createdAt) }), el('td', { text: when(s.lastUsedAt) }), el('td', { text: when(s.idleExpiresAt) }),
      el('td', {}, s.current ? 'this session' : confirmButton('End', 'Confirm: end session', async () => {
        await client.call('DELETE', `${path}/sessions/${enc(s.id)}`);
        await reload();
      }, (error) => showError(detail, error, 'Session not ended')))));
    const passkeys = keys.passkeys;
    const keyRows = (passkeys || []).map((k) => el('tr', { dataset: { passkey: k.id } },
      el('td', { text: k.nickname || k.name || k.id }), el('td', { text: when(k.createdAt) }), el('td', { text: when(k.lastUsedAt) }),
      el('td', {}, confirmButton('Remove', 'Confirm: remove passkey', async () => {
        await client.call('DELETE', `${path}/passkeys/${enc(k.id)}`);
        await reload();
      }, (error) => showError(detail, error, 'Passkey not removed')))));
    fill(detail, el('h3', { id: 'admin-person-title', text: person.displayName || person.id }),
      open.length ? dataTable('Open sessions', ['Signed in', 'Last used', 'Ends when idle', ''], sessionRows, { id: 'admin-sessions' })
        : el('p', { class: 'hint', text: 'No open session.' }),
      passkeys === null ? null : passkeys.length
        ? dataTable('Passkeys', ['Passkey', 'Registered', 'Last used', ''], keyRows, { id: 'admin-passkeys' })
        : el('p', { class: 'hint', text: 'No passkey registered: re-invite the person to let them register one.' }));
  } catch (error) {
    showError(detail, error, 'Could not be loaded');
  }
}
