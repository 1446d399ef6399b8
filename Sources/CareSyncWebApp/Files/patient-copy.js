// The patient's copy: a FHIR bulk export of everything of the patient the signed-in therapist may read
// (docs/fhir.md, "Bulk export"), started, polled and offered as the export's NDJSON files.
import { el, fill } from './dom.js';

const FHIR = 'application/fhir+json';
const enc = encodeURIComponent;

/** Starts the export of `patient`, shows its progress in `box` until done, then links every file; throws a Problem. */
export async function preparePatientCopy(client, patient, box, signal) {
  const kickoff = await client.call('GET', `/fhir/R4/Patient/${enc(patient.id)}/$export`,
    { accept: FHIR, extraHeaders: { Prefer: 'respond-async' }, full: true, signal });
  const status = new URL(kickoff.headers.get('Content-Location'), location.href).pathname;
  fill(box, el('p', { class: 'hint', role: 'status', text: 'Preparing the copy…' }));
  for (;;) {
    const answer = await client.call('GET', status, { accept: FHIR, full: true, signal });
    if (answer.status === 200) return showFiles(box, patient, answer.json);
    fill(box, el('p', { class: 'hint', role: 'status', text: `Preparing the copy: ${answer.headers.get('X-Progress') || 'queued'}…` }));
    const seconds = Math.min(Number(answer.headers.get('Retry-After')) || 1, 2);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

/** Links each file of the manifest (the cookie goes along: same origin), with what it holds and until when. */
function showFiles(box, patient, manifest) {
  const files = [...manifest.output.map((f, i) => ({ ...f, label: `Observations, file ${i + 1}` })),
    ...manifest.deleted.map((f, i) => ({ ...f, label: `Deletions, file ${i + 1}` }))];
  const links = files.map((f) => {
    const path = new URL(f.url, location.href).pathname;
    return el('li', {}, el('a', { href: path, download: `caresync-${patient.id}-${path.split('/').pop()}`, dataset: { count: f.count },
      text: `${f.label} (${f.count} ${f.count === 1 ? 'line' : 'lines'})` }));
  });
  fill(box,
    files.length ? el('ul', { class: 'plain-list', id: 'copy-files' }, links) : el('p', { class: 'hint', text: 'Nothing to export: the patient has no data you may read.' }),
    el('p', { class: 'hint', text: `FHIR R4 NDJSON as of ${new Date(manifest.transactionTime).toLocaleString()}; the files are deleted after a while, prepare the copy again then.` }));
}
