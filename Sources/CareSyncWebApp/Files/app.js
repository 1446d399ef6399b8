// The web app: sign in with a passkey (or an invitation link), a therapist's patients and their screens, an admin's
// pages (admin.js), and "My account". The session cookie is HttpOnly: no secret is ever held by this page.
import { Client, Problem } from './api.js';
import { byId, el, fill } from './dom.js';
import { hideAdmin } from './admin.js';
import { PatientView, clearPatientScreen } from './patient.js';
import { showProblem } from './problems.js';
import {
  AccountView, acceptInvitationWithProvider, offerPasskeys, offeredProvider, passkeysSupported, redeemInvitation, registerPasskey,
  showProviderButton, signInWithPasskey,
} from './signin.js';
import { clearWorksheet, downloadWorksheet, loadTriage, prepareWorksheet, renderTriage } from './triage.js';

const screens = ['sign-in', 'invitation-choice', 'invitation', 'account', 'patients', 'patient', 'admin'];
let session = null;       // { client, person, who, patients: Map }
let current = null;       // the open PatientView
let account = null;       // the open AccountView
let invited = null;       // { client, person } between redeeming an invitation and registering a passkey
let routes = 0;           // counts route changes, so a late answer for an earlier screen is dropped

/** Announces `text` in the status line (polite live region). */
export function setStatus(text) { byId('status').textContent = text; }

function show(screen) {
  for (const id of screens) { const node = byId(id); if (node) node.hidden = id !== screen; }
}

function alertBox() { return byId('alert'); }
function clearAlert() { alertBox().hidden = true; alertBox().replaceChildren(); }

/** How the page names a person. */
function nameOf(person) { return person.displayName || `${person.role} ${person.id}`; }

/** Ends the signed-in view: the open patient, every patient's data on the page and in memory, the list. */
function dropSession() {
  current?.dispose();
  current = null;
  account = null;
  session = null;
  clearPatientScreen();
  hideAdmin();
  fill(byId('triage-body'));
  clearWorksheet();
  byId('patients-empty').hidden = true;
  fill(byId('passkey-list'));
  fill(byId('session-list'));
  byId('admin')?.replaceChildren();
  byId('who').textContent = '';
  byId('sign-out').hidden = true;
  byId('account-link').hidden = true;
}

/** Shows the signed-in person's pages for `person`, signed in through `client`. */
async function enter(client, person, { restoring = false } = {}) {
  // Another sign-in means another person: nothing of the previous session may remain on the page.
  dropSession();
  clearAlert();
  let who = null;
  if (person.role === 'therapist') {
    try {
      who = await client.whoami();
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      showProblem(alertBox(), error, 'Sign-in failed');
      setStatus('');
      route();
      return;
    }
  }
  session = { client, person, who, patients: new Map() };
  const teams = person.careTeams.length ? ` · care team ${person.careTeams.join(', ')}` : '';
  byId('who').textContent = `${nameOf(person)}${teams}`;
  byId('sign-out').hidden = false;
  byId('account-link').hidden = false;
  setStatus('Signed in.');
  const home = person.role === 'admin' ? '#admin' : '#patients';
  if (!restoring && (location.hash === '' || location.hash === '#sign-in')) location.hash = home;
  else route();
}

/** Signs in with a discoverable passkey. */
async function passkeySignIn() {
  clearAlert();
  setStatus('Waiting for your passkey…');
  const client = new Client();
  try {
    const answer = await signInWithPasskey(client);
    await enter(client, answer.person);
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    showProblem(alertBox(), error, 'Sign-in refused');
    setStatus('');
  }
}

/** Ends the session on the server and shows the sign-in screen. */
async function signOut() {
  const client = session?.client;
  dropSession();
  clearAlert();
  if (client) {
    try { await client.signOut(); } catch (error) { if (!(error instanceof Problem)) throw error; }
  }
  setStatus('Signed out.');
  history.replaceState(null, '', '/');
  route();
}

/**
 * The invitation link (`/invite#<secret>`). With the clinic's provider configured, the person chooses: a passkey on
 * this device, or the provider's sign-in (which links their provider identity). Without one, a passkey it is; a
 * browser that cannot use passkeys is told so, and then the link is not redeemed.
 */
async function acceptInvitation() {
  const secret = location.hash.slice(1);
  // The secret leaves the address bar and the history at once (it is single-use anyway).
  history.replaceState(null, '', '/');
  if (!secret) { route(); return; }
  let provider = null;
  try {
    provider = await offeredProvider(new Client());
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
  }
  if (!provider && passkeysSupported()) { await redeemForPasskey(secret); return; }
  const withPasskey = byId('invitation-use-passkey');
  const withProvider = byId('invitation-use-provider');
  offerPasskeys(withPasskey, byId('invitation-no-passkeys'));
  withProvider.hidden = !provider;
  if (provider) withProvider.textContent = provider.name;   // oidc.displayName: the button's label as configured
  withPasskey.onclick = () => redeemForPasskey(secret);
  withProvider.onclick = async () => {
    clearAlert();
    setStatus(`Opening ${provider.name}…`);
    try {
      await acceptInvitationWithProvider(new Client(), provider, secret);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      showProblem(alertBox(), error, 'This invitation link cannot be used');
      setStatus('');
    }
  };
  show('invitation-choice');
  setStatus(provider ? 'Choose how you will sign in.' : '');
  if (provider) withProvider.focus();
}

/** Redeems the invitation once (the person is signed in), then asks for their first passkey. */
async function redeemForPasskey(secret) {
  clearAlert();
  setStatus('Opening your invitation…');
  const client = new Client();
  try {
    const answer = await redeemInvitation(client, secret);
    invited = { client, person: answer.person };
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    showProblem(alertBox(), error, 'This invitation link cannot be used');
    setStatus('');
    route();
    return;
  }
  byId('invitation-who').textContent = `You are signed in as ${nameOf(invited.person)} (${invited.person.role}).`;
  show('invitation');
  setStatus('Invitation accepted. Register a passkey to continue.');
  byId('invitation-passkey-name').focus();
}

/** Registers the invited person's first passkey, then continues signed in. */
async function registerFirstPasskey() {
  if (!invited) return;
  clearAlert();
  setStatus('Waiting for your passkey…');
  try {
    await registerPasskey(invited.client, byId('invitation-passkey-name').value.trim());
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    showProblem(alertBox(), error, 'Could not register the passkey');
    setStatus('');
    return;
  }
  const { client, person } = invited;
  invited = null;
  byId('invitation-passkey-name').value = '';
  await enter(client, person);
  setStatus('Passkey registered. You are signed in.');
}

/** "My account". */
async function showAccount() {
  show('account');
  byId('account-back').href = session.person.role === 'admin' ? '#admin' : '#patients';
  const view = new AccountView(session.client, session.person, { setStatus });
  account = view;
  try {
    await view.load();
    setStatus('Your passkeys and sessions.');
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    if (account === view) showProblem(alertBox(), error, 'Could not load your account');
  }
}

/** An admin's pages: `showAdmin(client, person)` of ./admin.js. */
async function showAdminScreen() {
  show('admin');
  const opening = session;
  const module = await import('./admin.js');
  if (session !== opening) return;
  await module.showAdmin(session.client, session.person);
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
    showProviderButton(new Client());
    const button = byId('passkey-sign-in');
    offerPasskeys(button, byId('sign-in-no-passkeys'));
    button.focus();
    return;
  }
  const hash = decodeURIComponent(location.hash.slice(1));
  if (hash === 'account') showAccount();
  else if (session.person.role === 'admin') showAdminScreen();
  else if (hash.startsWith('patient/')) showPatient(hash.slice('patient/'.length));
  else showPatients();
}

/**
 * The enrolment link a patient's phone opens from the QR code (`/enrol#<code>`): the code, readable, and what to do
 * with it. The page redeems nothing: the CareSync app or agent on the device does (`POST /v1/enrolments/redeem`).
 */
function showEnrolmentLanding() {
  const code = decodeURIComponent(location.hash.slice(1)).toUpperCase();
  show('none');
  const box = el('section', { id: 'enrol', class: 'panel narrow', 'aria-labelledby': 'enrol-title' },
    el('h1', { id: 'enrol-title', text: 'Connect this device to CareSync' }),
    code ? el('p', {}, 'Your code: ', el('code', { class: 'enrolment-code', text: code })) : el('p', { text: 'This link has no code: scan the QR code your therapist shows again.' }),
    el('p', { class: 'hint', text: 'Open the CareSync app on this phone or watch and enter the code (the agent: caresync-agent enroll CODE). It works once, for 15 minutes; ask your therapist for a new one if it has expired.' }));
  byId('main').append(box);
}

async function boot() {
  byId('passkey-sign-in').addEventListener('click', passkeySignIn);
  byId('invitation-form').addEventListener('submit', (event) => { event.preventDefault(); registerFirstPasskey(); });
  byId('passkey-form').addEventListener('submit', (event) => { event.preventDefault(); account?.addPasskey(); });
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
  if (location.pathname === '/invite') { await acceptInvitation(); return; }
  if (location.pathname === '/enrol') { showEnrolmentLanding(); return; }
  // Signed in already (the cookie is HttpOnly: ask the server)?
  const client = new Client();
  let answer = null;
  try {
    answer = await client.session();
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    if (error.status !== 401 && error.status !== 403) showProblem(alertBox(), error, 'Could not reach the server');
  }
  if (answer) await enter(client, answer.person, { restoring: true });
  else route();
}

boot();
