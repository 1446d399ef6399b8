// Refusals as the user sees them: the problem's detail and each field error.
import { el, fill } from './dom.js';

/** Where a field error points, in words: the form's label for the API field when `label` knows one. */
export function where(error, itemName = 'item', label = (field) => field) {
  const parts = [];
  if (error.index !== null && error.index !== undefined) parts.push(`${itemName} ${error.index + 1}`);
  if (error.field) parts.push(label(error.field) || error.field);
  return parts.join(', ');
}

/** Fills `box` with `heading`, the problem's detail and its field errors (named by `label`), and shows it. */
export function showProblem(box, problem, heading, itemName, label) {
  const items = problem.errors.map((e) => {
    const at = where(e, itemName, label);
    return el('li', {}, at ? el('span', { class: 'field', text: `${at}: ` }) : null, e.message);
  });
  fill(box,
    el('p', { class: 'problem-title', text: heading }),
    el('p', { class: 'problem-detail', text: problem.detail }),
    items.length ? el('ul', { class: 'problem-errors' }, items) : null,
    problem.code ? el('p', { class: 'hint', text: `${problem.status} ${problem.code}` }) : null);
  box.hidden = false;
}
