// The CareSync API over fetch, signed in with the session cookie (HttpOnly: this page never sees it). Unsafe requests
// carry the session's X-CSRF-Token (from GET /v1/session or the sign-in answer); the browser adds their Origin.

/** A refusal from the server: the problem's members, or a stand-in for a network failure. */
export class Problem extends Error {
  constructor(status, body) {
    // A FHIR refusal is an OperationOutcome: its first issue's diagnostics are the detail.
    if (body.resourceType === 'OperationOutcome') body = { detail: body.issue?.[0]?.diagnostics, title: 'FHIR request refused' };
    super(body.detail || body.title || `HTTP ${status}`);
    this.name = 'Problem';
    this.status = status;
    this.code = body.code || null;
    this.title = body.title || null;
    this.detail = body.detail || this.message;
    this.errors = Array.isArray(body.errors) ? body.errors : [];
    this.retryAfter = body.retryAfter || null;
  }
}

/**
 * Sends one same-origin API request (with the cookie); answers the parsed JSON body (with `full`: `{status, headers, json}`)
 * or throws a Problem (or AbortError).
 */
export async function request(method, path, { query, body, signal, extraHeaders, accept, full } = {}) {
  const headers = { Accept: accept || 'application/json', ...(extraHeaders || {}) };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let url = path;
  if (query) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
    const text = q.toString();
    if (text) url += `?${text}`;
  }
  let response;
  try {
    response = await fetch(url, {
      method, headers, signal, cache: 'no-store', credentials: 'same-origin', redirect: 'error',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (error.name === 'AbortError' || error.name === 'TimeoutError') throw error;
    throw new Problem(0, { title: 'Network error', detail: 'The server could not be reached. Check the connection and try again.' });
  }
  const type = response.headers.get('Content-Type') || '';
  const json = type.includes('json') ? await response.json().catch(() => null) : null;
  if (!response.ok) {
    const problem = new Problem(response.status, json || { title: response.statusText, detail: `The server answered ${response.status}.` });
    const retry = Number(response.headers.get('Retry-After'));
    if (retry > 0) problem.retryAfter = retry;
    throw problem;
  }
  if (full) return { status: response.status, headers: response.headers, json };
  if (accept && !type.includes('json')) return response.text();
  return response.status === 204 ? null : json;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The API calls the app makes, in this browser's session; `csrfToken` is the session's (null until known). */
export class Client {
  constructor() { this.csrfToken = null; }
  call(method, path, options = {}) {
    if (SAFE.has(method) || !this.csrfToken) return request(method, path, options);
    return request(method, path, { ...options, extraHeaders: { ...(options.extraHeaders || {}), 'X-CSRF-Token': this.csrfToken } });
  }
  /** The signed-in person, their session and its CSRF token (kept for later unsafe requests); a Problem when signed out. */
  async session() {
    const answer = await this.call('GET', '/v1/session');
    this.csrfToken = answer.csrfToken;
    return answer;
  }
  /** Keeps the CSRF token of a sign-in answer (`{person, session, csrfToken}`) and answers it. */
  signedIn(answer) { this.csrfToken = answer.csrfToken; return answer; }
  /** Ends the session on the server; the cookie is cleared. */
  async signOut() {
    try { await this.call('POST', '/v1/session/sign-out'); } finally { this.csrfToken = null; }
  }

  whoami() { return this.call('GET', '/v1/whoami'); }
  patients() { return this.call('GET', '/v1/patients'); }
  patient(id) { return this.call('GET', `/v1/patients/${enc(id)}`); }
  statistics(id, query, signal) { return this.call('GET', `/v1/patients/${enc(id)}/statistics`, { query, signal }); }
  /** Every report of the patient, page after page (each answer is bounded by the server). */
  async reports(id, signal) {
    const reports = [];
    let cursor;
    do {
      const page = await this.call('GET', `/v1/patients/${enc(id)}/weekly-reports`, { query: { cursor }, signal });
      reports.push(...page.reports);
      cursor = page.next;
    } while (cursor);
    return { reports };
  }
  /** Posts a report version; `key` (Idempotency-Key) makes a retry of the same submission answer the first result. */
  postReport(id, report, key) {
    return this.call('POST', `/v1/patients/${enc(id)}/weekly-reports`, { body: report, extraHeaders: key ? { 'Idempotency-Key': key } : undefined });
  }
  deleteReport(id, syncIdentifier) {
    return this.call('DELETE', `/v1/patients/${enc(id)}/weekly-reports/${enc(syncIdentifier)}`);
  }
  changes(id, query, signal) { return this.call('GET', `/v1/patients/${enc(id)}/changes`, { query, signal }); }
  careTeamStatus(name, query) { return this.call('GET', `/v1/care-teams/${enc(name)}/status`, { query }); }
  monitoring(id, signal) { return this.call('GET', `/v1/patients/${enc(id)}/monitoring`, { signal }); }
  startEpisode(id, startDay) { return this.call('POST', `/v1/patients/${enc(id)}/monitoring/episodes`, { body: { startDay } }); }
  endEpisode(id, endDay) { return this.call('POST', `/v1/patients/${enc(id)}/monitoring/episodes/current/end`, { body: { endDay } }); }
  minutes(id, signal) { return this.call('GET', `/v1/patients/${enc(id)}/monitoring/minutes`, { signal }); }
  logMinutes(id, entry) { return this.call('POST', `/v1/patients/${enc(id)}/monitoring/minutes`, { body: entry }); }
  goals(id, signal) { return this.call('GET', `/v1/patients/${enc(id)}/goals`, { signal }); }
  setGoal(id, kind, target) { return this.call('PUT', `/v1/patients/${enc(id)}/goals/${enc(kind)}`, { body: { target } }); }
  /** The care team's monthly worksheet as CSV text. */
  worksheetCSV(team, month) {
    return this.call('GET', `/v1/care-teams/${enc(team)}/worksheet`, { query: { month }, accept: 'text/csv' });
  }
}

function enc(segment) { return encodeURIComponent(segment); }

/**
 * The patient's change feed, long-polled: reads to the head once (keeping only the anchor), then
 * polls with `wait` and the same filters, handing every non-empty page to `onPage`.
 */
export class LiveFeed {
  constructor(client, patient, types, { onPage, onState }) {
    this.client = client; this.patient = patient; this.types = types.join(',');
    this.onPage = onPage; this.onState = onState;
    this.stopper = new AbortController();
    this.anchor = null;
  }

  /** Runs until `stop()`. */
  async run() {
    const signal = this.stopper.signal;
    let failures = 0;
    while (!signal.aborted) {
      try {
        if (this.anchor === null) await this.catchUp(signal);
        this.onState('live');
        const timeout = AbortSignal.timeout((LiveFeed.wait + 10) * 1000);
        const page = await this.client.changes(this.patient,
          { types: this.types, anchor: this.anchor, wait: LiveFeed.wait, limit: 500 }, AbortSignal.any([signal, timeout]));
        this.anchor = page.anchor;
        failures = 0;
        if (page.samples.length || page.deletedObjects.length) this.onPage(page);
      } catch (error) {
        if (signal.aborted) return;
        if (error.name === 'TimeoutError') continue;
        if (error instanceof Problem && (error.code === 'anchorExpired' || error.code === 'invalidAnchor')) {
          this.anchor = null;
          continue;
        }
        failures += 1;
        this.onState('retrying', error);
        const seconds = error.retryAfter || Math.min(30, 2 ** failures);
        await sleep(seconds * 1000, signal);
      }
    }
  }

  /** Reaches the head of the feed without reading its history (`anchor=now`); the views are loaded separately. */
  async catchUp(signal) {
    this.onState('catching up');
    const page = await this.client.changes(this.patient, { types: this.types, anchor: 'now', limit: 1 }, signal);
    this.anchor = page.anchor;
  }

  stop() { this.stopper.abort(); }
}
LiveFeed.wait = 25;

function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}
