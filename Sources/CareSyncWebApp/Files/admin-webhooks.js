// Admin: webhook subscriptions (create with the secret shown once, pause, resume, delete) and their delivery state.
import { el, fill } from './dom.js';
import { actionForm, confirmButton, dataTable, field, onceBox, showError, when } from './admin.js';

const EVENTS = ['patient.changed', 'alert.raised', 'alert.resolved'];
const enc = encodeURIComponent;
/** The new subscription whose secret the next drawing of the page shows, once. */
let created = null;

/** The webhooks page: every subscription with its state and actions, and a create form. */
export async function renderWebhooks(body, context) {
  const { client } = context;
  const [{ webhooks }, { careTeams }] = await Promise.all([client.call('GET', '/v1/webhooks'), client.call('GET', '/v1/care-teams')]);
  if (context.stale()) return;
  const shown = el('div', { id: 'admin-webhook-secret' });
  const act = (hook, verb) => el('button', { type: 'button', class: 'quiet', text: verb === 'pause' ? 'Pause' : 'Resume',
    onclick: async () => {
      try { await client.call('POST', `/v1/webhooks/${enc(hook.id)}/${verb}`); context.refresh(); } catch (error) { showError(body, error, 'Not changed'); }
    } });
  const rows = webhooks.map((h) => el('tr', { dataset: { webhook: h.id } },
    el('th', { scope: 'row' }, el('code', { text: h.url })),
    el('td', { text: [...h.careTeams.map((t) => `team ${t}`), ...h.patients].join(', ') || 'every patient' }),
    el('td', { text: h.events.join(', ') }),
    el('td', { class: 'webhook-state', text: h.paused ? 'paused' : h.failingSince ? `failing since ${when(h.failingSince)}` : 'delivering' }),
    el('td', { class: 'num', text: `${h.pendingDeliveries} waiting, ${h.droppedDeliveries} dropped` }),
    el('td', {}, act(h, h.paused ? 'resume' : 'pause'), confirmButton('Delete', 'Confirm: delete subscription', async () => {
      await client.call('DELETE', `/v1/webhooks/${enc(h.id)}`);
      context.refresh();
    }, (error) => showError(body, error, 'Not deleted')))));
  const teamBoxes = careTeams.map((t) => el('label', { class: 'check' }, el('input', { type: 'checkbox', name: 'careTeams', value: t.name }), ` ${t.name}`));
  const eventBoxes = EVENTS.map((e) => el('label', { class: 'check' },
    el('input', { type: 'checkbox', name: 'events', value: e, checked: e === 'patient.changed' }), ` ${e}`));
  const form = actionForm({ id: 'admin-webhook-form', 'aria-label': 'New webhook subscription', 'data-submit': 'Subscribe' }, [
    field('URL', { name: 'url', type: 'url', required: true, placeholder: 'the receiver’s https address', size: '40' }),
    el('fieldset', { class: 'teams' }, el('legend', { text: 'Care teams (none: every patient)' }), teamBoxes),
    el('fieldset', { class: 'teams' }, el('legend', { text: 'Events' }), eventBoxes),
  ], async (f) => {
    const checked = (name) => [...f.querySelectorAll(`input[name=${name}]:checked`)].map((c) => c.value);
    created = await client.call('POST', '/v1/webhooks', { body: { url: f.url.value.trim(), careTeams: checked('careTeams'), events: checked('events') } });
    context.refresh();
  }, { heading: 'Not subscribed', labels: { url: 'URL', careTeams: 'Care teams', events: 'Events' } });
  if (created) {
    fill(shown, onceBox(`Signing secret of ${created.url}`, created.secret,
      'Give it to the receiver to verify signatures (Standard Webhooks); it is shown only now.', { id: 'webhook-secret' }));
    created = null;
  }
  fill(body,
    webhooks.length ? dataTable('Webhook subscriptions, oldest first', ['Receiver', 'Patients', 'Events', 'State', 'Queue', ''], rows, { id: 'admin-webhooks' })
      : el('p', { class: 'hint', text: 'No subscription yet.' }),
    el('h3', { text: 'New subscription' }), form, shown);
}
