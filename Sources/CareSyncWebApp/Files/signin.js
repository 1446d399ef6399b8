// Signing in without tokens: invitation links, passkeys (WebAuthn, discoverable, user verification required) and
// "My account" (my passkeys, my sessions). The server makes every challenge and checks every answer.
import { Problem } from './api.js';
import { byId, el, fill } from './dom.js';
import { showProblem } from './problems.js';

/** What a WebAuthn refusal in this browser means to the person (a Problem, so the app shows it as any other). */
function browserRefusal(error) {
  if (error instanceof Problem) return error;
  const detail = {
    NotAllowedError: 'The passkey prompt was cancelled, timed out, or the device could not verify you. Try again.',
    InvalidStateError: 'This device already holds a passkey for you here.',
    SecurityError: 'Passkeys do not work at this address: open CareSync at its configured address (not an IP address).',
    NotSupportedError: 'This browser or device cannot make passkeys.',
  }[error?.name] || `The browser refused: ${error?.message || error}`;
  return new Problem(0, { title: 'Passkey refused', detail });
}

/** Whether this browser can run passkey ceremonies from JSON options. */
export function passkeysSupported() {
  return Boolean(window.PublicKeyCredential?.parseCreationOptionsFromJSON && window.PublicKeyCredential?.parseRequestOptionsFromJSON);
}

/**
 * Offers a passkey ceremony through `button` only where this browser can run one; elsewhere the button is disabled and
 * `note` says why and what to do.
 */
export function offerPasskeys(button, note) {
  const supported = passkeysSupported();
  button.disabled = !supported;
  note.textContent = supported ? '' : 'This browser cannot use passkeys. Open this page in a current version of '
    + 'Chrome, Edge, Firefox or Safari, or on your phone.';
  note.hidden = supported;
}

/** The sign-in methods the server offers (`{passkeys, openIDConnect}`). */
function signInMethods(client) { return client.call('GET', '/v1/sign-in/methods'); }

/** The clinic's provider when the server offers one (`{name, start}`), else null. */
export async function offeredProvider(client) {
  return (await signInMethods(client)).openIDConnect || null;
}

/**
 * Accepts an invitation through the provider: the server keeps the sign-in (the secret goes in the POST body, never in
 * a URL), then the page goes to the provider's login; the person comes back signed in, the identity linked to them.
 */
export async function acceptInvitationWithProvider(client, provider, secret) {
  const { authorizationUrl } = await client.call('POST', provider.start, { body: { invitation: secret } });
  location.assign(authorizationUrl);
}

/** Redeems an invitation's secret once: the person is signed in (the answer's CSRF token is kept). */
export async function redeemInvitation(client, secret) {
  return client.signedIn(await client.call('POST', '/v1/invitations/redeem', { body: { secret } }));
}

/** Registers a passkey named `name` for the signed-in person; answers the stored passkey. */
export async function registerPasskey(client, name) {
  const options = await client.call('POST', '/v1/session/passkeys/challenge');
  let credential;
  try {
    const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options);
    credential = await navigator.credentials.create({ publicKey });
  } catch (error) {
    throw browserRefusal(error);
  }
  return client.call('POST', '/v1/session/passkeys', { body: { credential: credential.toJSON(), name: name || undefined } });
}

/** Signs in with a discoverable passkey (no user name asked); answers `{person, session, csrfToken}`. */
export async function signInWithPasskey(client) {
  const options = await client.call('POST', '/v1/sign-in/passkey/challenge');
  let credential;
  try {
    const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options);
    credential = await navigator.credentials.get({ publicKey });
  } catch (error) {
    throw browserRefusal(error);
  }
  return client.signedIn(await client.call('POST', '/v1/sign-in/passkey', { body: { credential: credential.toJSON() } }));
}

/** Fills the provider button from the server's sign-in methods, labelled `oidc.displayName` (hidden when there is none). */
export async function showProviderButton(client) {
  const box = byId('provider-sign-in');
  try {
    const openIDConnect = await offeredProvider(client);
    if (!openIDConnect) { box.hidden = true; return; }
    fill(box, el('a', { class: 'button', href: openIDConnect.start, text: openIDConnect.name }));
    box.hidden = false;
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    box.hidden = true;
  }
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
function when(text) { return text ? dateTime.format(new Date(text)) : 'never'; }

/** "My account": the person's passkeys (add, remove) and sessions (end); `setStatus` announces what happened. */
export class AccountView {
  constructor(client, person, { setStatus }) {
    this.client = client; this.person = person; this.setStatus = setStatus;
  }

  /** Loads both lists. */
  async load() {
    byId('account-name').textContent = this.person.displayName || `${this.person.role} ${this.person.id}`;
    await Promise.all([this.loadPasskeys(), this.loadSessions()]);
  }

  async loadPasskeys() {
    const { passkeys } = await this.client.call('GET', '/v1/session/passkeys');
    fill(byId('passkey-list'), passkeys.map((p) => el('li', { dataset: { passkey: p.id } },
      el('span', { class: 'passkey-name', text: p.name }),
      el('span', { class: 'hint', text: ` · added ${when(p.createdAt)} · last used ${when(p.lastUsedAt)} ` }),
      el('button', { type: 'button', class: 'quiet danger', text: 'Remove', 'aria-label': `Remove passkey ${p.name}`,
        onclick: () => this.act(() => this.client.call('DELETE', `/v1/session/passkeys/${encodeURIComponent(p.id)}`),
          `Passkey ${p.name} removed.`, 'Could not remove the passkey') }))));
    byId('passkeys-empty').hidden = passkeys.length > 0;
  }

  async loadSessions() {
    const { sessions } = await this.client.call('GET', `/v1/people/${encodeURIComponent(this.person.id)}/sessions`);
    const open = sessions.filter((s) => !s.endedAt);
    fill(byId('session-list'), open.map((s) => el('li', { dataset: { session: s.id } },
      el('span', { text: s.current ? 'This browser' : `Signed in ${when(s.createdAt)}` }),
      el('span', { class: 'hint', text: ` · last used ${when(s.lastUsedAt)} ` }),
      s.current ? null : el('button', { type: 'button', class: 'quiet danger', text: 'End',
        onclick: () => this.act(() => this.client.call('DELETE',
          `/v1/people/${encodeURIComponent(this.person.id)}/sessions/${encodeURIComponent(s.id)}`), 'Session ended.', 'Could not end the session') }))));
  }

  /** Registers another passkey named from the form. */
  async addPasskey() {
    const name = byId('passkey-name').value.trim();
    await this.act(() => registerPasskey(this.client, name), 'Passkey added.', 'Could not add the passkey');
    byId('passkey-name').value = '';
  }

  /** Runs `change`, then reloads the lists and announces `done`; a refusal is shown with `heading`. */
  async act(change, done, heading) {
    const box = byId('account-problem');
    box.hidden = true;
    try {
      await change();
      await this.load();
      this.setStatus(done);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      showProblem(box, error, heading);
    }
  }
}
