// Admin: the audit log, newest first, filtered by patient and caller, a page at a time.
import { el, fill } from './dom.js';
import { actionForm, dataTable, field, showError, when } from './admin.js';

const PAGE = 50;

/** The audit page: a filter form and the records, with a button that reads the next older page. */
export async function renderAudit(body, context) {
  const { client } = context;
  const table = el('div', { id: 'admin-audit-records' });
  let filters = {};
  let records = [];
  const more = el('button', { type: 'button', class: 'quiet', id: 'audit-older', text: 'Older records', hidden: true });
  const load = async (reset) => {
    const before = reset || !records.length ? undefined : records[records.length - 1].id;
    const page = await client.call('GET', '/v1/audit', { query: { ...filters, before, limit: PAGE } });
    records = reset ? page.records : records.concat(page.records);
    more.hidden = page.records.length < PAGE;
    const rows = records.map((r) => el('tr', { dataset: { id: r.id } },
      el('td', { text: when(r.time) }), el('td', {}, el('code', { text: r.tokenId })), el('td', { text: r.role }),
      el('td', { text: r.patient || '—' }), el('td', { text: r.action }), el('td', { class: 'num', text: String(r.count) }),
      el('td', { class: 'num', text: String(r.status) })));
    fill(table, records.length ? dataTable('Audit records, newest first', ['Time', 'Caller', 'Role', 'Patient', 'Action', 'Items', 'Status'], rows, { id: 'admin-audit' })
      : el('p', { class: 'hint', text: 'No record matches.' }));
  };
  more.addEventListener('click', () => load(false).catch((error) => showError(body, error, 'Older records could not be loaded')));
  const form = actionForm({ id: 'admin-audit-form', role: 'search', 'aria-label': 'Filter the audit log', 'data-submit': 'Show' }, [
    field('Patient', { name: 'patient', spellcheck: 'false', autocomplete: 'off' }),
    field('Caller (token id or p:person id)', { name: 'token', spellcheck: 'false', autocomplete: 'off' }),
  ], async (f) => {
    filters = { patient: f.patient.value.trim() || undefined, token: f.token.value.trim() || undefined };
    await load(true);
  }, { heading: 'Not shown', labels: { patient: 'Patient', token: 'Caller', before: 'Older records', limit: 'Page size' } });
  fill(body, form, el('p', { class: 'hint', text: 'Every access leaves a record: who, which patient, what, how many items and the answer; never values.' }),
    table, more);
  await load(true);
}
