// The admin pages: patients and their devices, care teams, people, webhooks and the audit log (docs/api.md).
import { byId, el, fill } from './dom.js';
import { showProblem } from './problems.js';
import { renderPatients } from './admin-patients.js';
import { renderTeams } from './admin-teams.js';
import { renderPeople } from './admin-people.js';
import { renderWebhooks } from './admin-webhooks.js';
import { renderAudit } from './admin-audit.js';

/** The pages, in the navigation's order: hash name, title, renderer. */
const PAGES = [
  ['patients', 'Patients', renderPatients],
  ['teams', 'Care teams', renderTeams],
  ['people', 'People', renderPeople],
  ['webhooks', 'Webhooks', renderWebhooks],
  ['audit', 'Audit log', renderAudit],
];

/** The admin section, made once inside <main>. */
function section() {
  let node = byId('admin');
  if (!node) {
    node = el('section', { id: 'admin', 'aria-labelledby': 'admin-title', hidden: true });
    byId('main').append(node);
  }
  return node;
}

/** The page named by the location's hash (`#admin/people`), else the first. */
export function adminPage(hash = location.hash) {
  const name = hash.startsWith('#admin/') ? decodeURIComponent(hash.slice(7)) : '';
  return PAGES.find(([page]) => page === name) || PAGES[0];
}

/** Counts drawings: an answer for an earlier one is dropped. */
let generation = 0;

/**
 * Shows the admin page the location's hash names (`#admin/people`) for `person` (an admin) with `client`. The app
 * calls it again on every route change; `hideAdmin` empties the pages at sign-out.
 */
export function showAdmin(client, person) {
  const root = section();
  const render = () => {
    const [name, title, draw] = adminPage();
    const mine = ++generation;
    const body = el('div', { class: 'admin-page' });
    fill(root,
      el('h1', { id: 'admin-title', text: 'Administration' }),
      el('p', { class: 'hint', text: `Signed in as ${person.displayName || person.id} (admin).` }),
      el('nav', { class: 'tabs', 'aria-label': 'Administration pages' },
        PAGES.map(([page, label]) => el('a', { href: `#admin/${page}`, 'aria-current': page === name ? 'page' : null, text: label }))),
      el('h2', { id: 'admin-page-title', text: title }),
      body);
    root.hidden = false;
    const context = { client, person, stale: () => mine !== generation || root.hidden, refresh: render };
    draw(body, context).catch((error) => {
      if (context.stale()) return;
      const box = el('div', { class: 'alert', role: 'alert' });
      body.prepend(box);
      showProblem(box, error, `${title} could not be loaded`);
    });
  };
  render();
}

/** Hides and empties the admin pages (sign-out): nothing of them stays on the page. */
export function hideAdmin() {
  generation += 1;
  const root = byId('admin');
  if (root) { root.hidden = true; root.replaceChildren(); }
}

/** A data table with a caption, column headers and rows of cells (strings or nodes). */
export function dataTable(caption, headers, rows, attributes = {}) {
  return el('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': caption },
    el('table', { class: 'data', ...attributes },
      el('caption', { text: caption }),
      el('thead', {}, el('tr', {}, headers.map((h) => el('th', { scope: 'col', text: h })))),
      el('tbody', {}, rows)));
}

/** A form whose submit runs `action(form)`; a refusal shows in the form's own alert box, named by `labels`. */
export function actionForm(props, children, action, { heading = 'Not saved', labels = {} } = {}) {
  const problem = el('div', { class: 'alert', role: 'alert', hidden: true });
  const form = el('form', { class: 'controls', novalidate: true, ...props }, children,
    el('button', { type: 'submit', text: props['data-submit'] || 'Save' }));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    problem.hidden = true;
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    try { await action(form); } catch (error) {
      showProblem(problem, error, heading, 'item', (field) => labels[field] || field);
    } finally { button.disabled = false; }
  });
  return el('div', { class: 'admin-form' }, form, problem);
}

/** A button that asks once more before running `action` (the second press does it). */
export function confirmButton(label, confirmLabel, action, onError) {
  const button = el('button', { type: 'button', class: 'quiet', text: label });
  let armed = false;
  button.addEventListener('click', async () => {
    if (!armed) { armed = true; button.textContent = confirmLabel; button.classList.add('danger'); return; }
    button.disabled = true;
    try { await action(); } catch (error) {
      armed = false; button.textContent = label; button.classList.remove('danger'); button.disabled = false;
      onError(error);
    }
  });
  return button;
}

/** A labelled input. */
export function field(label, props) { return el('label', {}, `${label} `, el('input', props)); }

/** A date-time in the browser's language and zone, with the zone named; '—' for none. */
export function when(text) {
  if (!text) return '—';
  return new Date(text).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit',
    minute: '2-digit', timeZoneName: 'short' });
}

/** An alert box placed before `node`'s content, showing `error` under `heading`. */
export function showError(node, error, heading) {
  let box = node.querySelector(':scope > .alert.page-problem');
  if (!box) { box = el('div', { class: 'alert page-problem', role: 'alert' }); node.prepend(box); }
  showProblem(box, error, heading);
}

/** A "shown once" notice holding a secret or link, with why it is shown only now. */
export function onceBox(title, value, hint, attributes = {}) {
  return el('div', { class: 'once', role: 'status', ...attributes },
    el('p', { class: 'problem-title', text: title }),
    el('p', {}, el('code', { class: 'secret', text: value })),
    el('p', { class: 'hint', text: hint }));
}
