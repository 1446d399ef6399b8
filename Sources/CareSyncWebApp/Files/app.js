// The therapist's web app: sign in with a token, the patients in reach, one patient's screens.
import { Client, Problem, clearToken, storeToken, storedToken } from './api.js';
import { byId, el, fill } from './dom.js';
import { PatientView, clearPatientScreen } from './patient.js';
import { showProblem } from './problems.js';
import { clearWorksheet, downloadWorksheet, loadTriage, prepareWorksheet, renderTriage } from './triage.js';

const screens = ['sign-in', 'patients', 'patient'];
let session = null;       // { client, who, patients: Map }
let current = null;       // the open PatientView
let routes = 0;           // counts route changes, so a late answer for an earlier screen is dropped

/** Announces `text` in the status line (polite live region). */
export function setStatus(text) { byId('status').textContent = text; }

function show(screen) {
  for (const id of screens) byId(id).hidden = id !== screen;
}

function alertBox() { return byId('alert'); }
function clearAlert() { alertBox().hidden = true; alertBox().replaceChildren(); }

/** What a non-therapist token is told. */
function refusal(who) {
  if (who.role === 'device') {
    return 'This is a device token: it belongs to one patient\'s phone or watch, which pushes samples. '
      + 'The therapist view needs a therapist token.';
  }
  if (who.role === 'admin') {
    return 'This is an admin token: it manages patients, care teams and tokens but reaches no patient data. '
      + 'The therapist view needs a therapist token.';
  }
  return 'This token cannot be used here; the therapist view needs a therapist token.';
}

/** Ends the signed-in view: the open patient, every patient's data on the page and in memory, the list. */
function dropSession() {
  current?.dispose();
  current = null;
  session = null;
  clearPatientScreen();
  fill(byId('triage-body'));
  clearWorksheet();
  byId('patients-empty').hidden = true;
}

async function signIn(token, { restoring = false } = {}) {
  // Another token means another person: nothing of the previous session may remain on the page.
  dropSession();
  clearAlert();
  const client = new Client(token);
  setStatus('Checking the token…');
  let who;
  try {
    who = await client.whoami();
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    clearToken();
    showProblem(alertBox(), error, restoring ? 'Your session ended' : 'Sign-in refused');
    setStatus('');
    route();
    return;
  }
  if (who.role !== 'therapist') {
    clearToken();
    fill(alertBox(), el('p', { class: 'problem-title', text: 'Sign-in refused' }), el('p', { text: refusal(who) }));
    alertBox().hidden = false;
    setStatus('');
    route();
    return;
  }
  storeToken(token);
  session = { client, who, patients: new Map() };
  const teams = who.careTeams.length ? ` · care team ${who.careTeams.join(', ')}` : '';
  byId('who').textContent = `${who.source}${teams}`;
  byId('sign-out').hidden = false;
  setStatus('Signed in.');
  if (!restoring && (location.hash === '' || location.hash === '#sign-in')) location.hash = '#patients';
  else route();
}

function signOut() {
  dropSession();
  clearToken();
  byId('who').textContent = '';
  byId('sign-out').hidden = true;
  byId('token').value = '';
  clearAlert();
  setStatus('Signed out. The token was removed from this tab.');
  history.replaceState(null, '', location.pathname);
  route();
}

async function showPatients() {
  show('patients');
  setStatus('Loading patients…');
  const opening = session, routed = routes;
  try {
    const only = byId('triage-only').value;
    const [{ patients }, rows] = await Promise.all([
      opening.client.patients(), loadTriage(opening.client, opening.who.careTeams, only)]);
    if (session !== opening || routes !== routed) return;
    session.patients = new Map(patients.map((p) => [p.id, p]));
    session.triage = rows;
    prepareWorksheet(opening.who.careTeams);
    byId('patients-empty').hidden = patients.length > 0;
    const shown = renderTriage(rows, byId('triage-filter').value);
    setStatus(`${shown} patient${shown === 1 ? '' : 's'}.`);
    byId('patients-title').focus?.();
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    if (session !== opening || routes !== routed) return;
    showProblem(alertBox(), error, 'Could not load the patients');
    setStatus('');
  }
}

async function showPatient(id) {
  clearPatientScreen();
  show('patient');
  setStatus(`Opening ${id}…`);
  const opening = session, routed = routes;
  let patient = opening.patients.get(id);
  try {
    if (!patient) patient = await opening.client.patient(id);
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    if (session !== opening || routes !== routed) return;
    clearPatientScreen();
    byId('patient').hidden = true;
    showProblem(alertBox(), error, `Could not open patient ${id}`);
    setStatus('');
    return;
  }
  // Signed out or signed in as someone else while the patient loaded: show nothing of it.
  if (session !== opening || routes !== routed) return;
  current = new PatientView(session, patient, { setStatus, alert: alertBox() });
  current.start();
}

function route() {
  routes += 1;
  current?.dispose();
  current = null;
  if (!session) {
    show('sign-in');
    byId('token').focus();
    return;
  }
  const hash = decodeURIComponent(location.hash.slice(1));
  if (hash.startsWith('patient/')) showPatient(hash.slice('patient/'.length));
  else showPatients();
}

function boot() {
  byId('sign-in-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const token = byId('token').value.trim();
    byId('token').value = '';
    if (token) signIn(token);
  });
  byId('sign-out').addEventListener('click', signOut);
  document.querySelector('.skip').addEventListener('click', (event) => {
    event.preventDefault();
    byId('main').focus();
  });
  byId('triage-controls').addEventListener('submit', (event) => event.preventDefault());
  byId('worksheet-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!session) return;
    clearAlert();
    try {
      await downloadWorksheet(session.client);
      setStatus('Worksheet downloaded.');
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      showProblem(alertBox(), error, 'Could not download the worksheet');
    }
  });
  byId('triage-only').addEventListener('change', () => { if (session) route(); });
  byId('triage-filter').addEventListener('input', () => {
    if (session?.triage) setStatus(`${renderTriage(session.triage, byId('triage-filter').value)} shown.`);
  });
  window.addEventListener('hashchange', () => { if (session) { clearAlert(); route(); } });
  // The token of this tab changed or went away elsewhere (sessionStorage events from this origin): start over.
  window.addEventListener('storage', (event) => {
    if (event.key !== null && event.key !== 'caresync.token') return;
    const token = storedToken();
    if (!token) { if (session) signOut(); return; }
    if (session?.client.token !== token) signIn(token, { restoring: true });
  });
  const token = storedToken();
  if (token) signIn(token, { restoring: true });
  else route();
}

boot();
