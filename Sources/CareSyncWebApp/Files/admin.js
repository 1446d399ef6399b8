// Administration pages for admin accounts: a placeholder until the admin pages land (they replace this file).
import { el, fill } from './dom.js';

/** Shows the administration screen for `person`, signed in through `client` (`client.call(method, path, options)`). */
export function showAdmin(client, person) {
  let section = document.getElementById('admin');
  if (!section) {
    section = el('section', { id: 'admin', class: 'panel', 'aria-labelledby': 'admin-title' });
    document.getElementById('main').append(section);
  }
  fill(section, el('h1', { id: 'admin-title', text: 'Administration' }),
    el('p', { class: 'admin-person', text: person.displayName || `${person.role} ${person.id}` }));
  section.hidden = false;
}
