// The guest e-mail's two parts from one model: HTML (the operator's name, logo and colour; the workflow's
// text; the booking's details, QR code and links) and the same in plain text. Every value is text: the
// guest's name and answers, the operator's template and activity texts alike are escaped here, never
// trusted as markup; the only markup is this file's. Layout in tables with inline styles, as mail clients
// need. docs/emails.md says how the workflow's text and the layout combine.
import type { GuestMessages } from '../lib/guest-messages.js';

export interface GuestEmailDetails {
  reference: string;
  activityName: string;
  /** The date and time in words with the activity's zone named (guest-messages' `when`). */
  when: string;
  tickets: { name: string; quantity: number; amount: string }[];
  total: string;
  meetingPoint: { address: string; mapUrl: string | null } | null;
  whatToBring: string[];
  /** The cancellation rule in sentences; null where it no longer matters (a cancelled booking). */
  policy: string[] | null;
  manageUrl: string | null;
  /** Where the guest completes a pending waiver; null when nothing is pending. */
  waiverUrl: string | null;
  /** The Content-ID of the attached QR code; null for no code (a cancelled booking). */
  qrCid: string | null;
  /** Whether a calendar entry is attached. */
  calendar: boolean;
}

export interface GuestEmailModel {
  language: string;
  m: GuestMessages;
  headline: string;
  operatorName: string;
  logoUrl: string | null;
  /** #rrggbb with white text readable on it (settings/rules.ts), or null for the default. */
  brandColour: string | null;
  /** The workflow's body as rendered: plain text, placeholders and links filled in. */
  body: string;
  details: GuestEmailDetails | null;
  /** Whether replies reach the operator (a Reply-To is set). */
  replies: boolean;
}

const DEFAULT_COLOUR = '#1f4e79';

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Only http(s) links become links; anything else (javascript:, data:) stays text. */
const safeUrl = (url: string | null): string | null => (url !== null && /^https?:\/\//i.test(url) ? url : null);

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+/g;

/** The operator's text: paragraphs at blank lines, line breaks kept, web addresses made links; all escaped. */
export function textToHtml(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => {
      let html = '';
      let last = 0;
      for (const match of paragraph.matchAll(URL_IN_TEXT)) {
        const url = match[0].replace(/[.,;:!?)]+$/, '');
        html += `${escapeHtml(paragraph.slice(last, match.index))}<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
        last = match.index + url.length;
      }
      html += escapeHtml(paragraph.slice(last));
      return `<p style="margin:0 0 16px">${html.replace(/\n/g, '<br>')}</p>`;
    })
    .join('\n');
}

const row = (label: string, valueHtml: string) =>
  `<tr><th align="left" valign="top" style="padding:4px 12px 4px 0;font-weight:600;white-space:nowrap">${escapeHtml(label)}</th><td style="padding:4px 0">${valueHtml}</td></tr>`;

const section = (heading: string, innerHtml: string) => `<h2 style="font-size:16px;margin:20px 0 6px">${escapeHtml(heading)}</h2>${innerHtml}`;

function detailsHtml(model: GuestEmailModel, d: GuestEmailDetails, colour: string): string {
  const { m } = model;
  const tickets = d.tickets.map((t) => `${t.quantity} × ${escapeHtml(t.name)} <span style="color:#555">${escapeHtml(t.amount)}</span>`).join('<br>');
  let html = `<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:8px 0">
${row(m.reference, `<strong>${escapeHtml(d.reference)}</strong>`)}
${row(m.activity, escapeHtml(d.activityName))}
${row(m.dateLabel, escapeHtml(d.when))}
${row(m.tickets, tickets)}
${row(m.total, `<strong>${escapeHtml(d.total)}</strong>`)}
</table>`;
  if (d.meetingPoint) {
    const map = safeUrl(d.meetingPoint.mapUrl);
    html += section(
      m.meetingPoint,
      `<p style="margin:0">${escapeHtml(d.meetingPoint.address)}${map ? `<br><a href="${escapeHtml(map)}">${escapeHtml(m.openMap)}</a>` : ''}</p>`,
    );
  }
  if (d.whatToBring.length > 0)
    html += section(
      m.whatToBring,
      `<ul style="margin:0;padding-left:20px">${d.whatToBring.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`,
    );
  if (d.policy) html += section(m.policyHeading, `<p style="margin:0">${d.policy.map(escapeHtml).join(' ')}</p>`);
  if (d.waiverUrl)
    html += `<p style="margin:20px 0 0">${escapeHtml(m.waiverPendingNote)} <a href="${escapeHtml(d.waiverUrl)}">${escapeHtml(m.completeWaiver)}</a></p>`;
  if (d.qrCid)
    html += `<p style="margin:20px 0 4px"><img src="cid:${escapeHtml(d.qrCid)}" width="180" height="180" alt="${escapeHtml(m.qrAlt(d.reference))}"></p><p style="margin:0;color:#555">${escapeHtml(m.qrCaption)}</p>`;
  if (d.manageUrl)
    html += `<p style="margin:24px 0"><a href="${escapeHtml(d.manageUrl)}" style="background:${colour};color:#ffffff;padding:10px 18px;border-radius:4px;text-decoration:none;display:inline-block">${escapeHtml(m.manageLink(d.reference))}</a></p>`;
  if (d.calendar) html += `<p style="margin:0;color:#555">${escapeHtml(m.calendarNote)}</p>`;
  return html;
}

export function guestEmailHtml(model: GuestEmailModel): string {
  const colour = model.brandColour && /^#[0-9a-f]{6}$/i.test(model.brandColour) ? model.brandColour : DEFAULT_COLOUR;
  const logo = safeUrl(model.logoUrl);
  const brand = logo
    ? `<img src="${escapeHtml(logo)}" alt="${escapeHtml(model.operatorName)}" style="max-height:48px;max-width:240px">`
    : `<span style="font-size:20px;font-weight:700;color:#ffffff">${escapeHtml(model.operatorName)}</span>`;
  return `<!DOCTYPE html>
<html lang="${escapeHtml(model.language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(model.headline)}</title></head>
<body style="margin:0;background:#f4f4f4;font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;font-size:15px;line-height:1.5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f4"><tr><td align="center" style="padding:16px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff">
<tr><td style="background:${logo ? '#ffffff' : colour};padding:16px 24px;border-top:6px solid ${colour}">${brand}</td></tr>
<tr><td style="padding:24px">
<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(model.headline)}</h1>
${textToHtml(model.body)}
${model.details ? detailsHtml(model, model.details, colour) : ''}
${model.replies ? `<p style="margin:24px 0 0;color:#555">${escapeHtml(model.m.replyNote)}</p>` : ''}
</td></tr></table>
</td></tr></table>
</body></html>`;
}

export function guestEmailText(model: GuestEmailModel): string {
  const { m } = model;
  const lines = [model.body.trim()];
  const d = model.details;
  if (d) {
    lines.push('', `${m.reference}: ${d.reference}`, `${m.activity}: ${d.activityName}`, `${m.dateLabel}: ${d.when}`, `${m.tickets}:`);
    for (const t of d.tickets) lines.push(`  ${t.quantity} × ${t.name}: ${t.amount}`);
    lines.push(`${m.total}: ${d.total}`);
    if (d.meetingPoint) lines.push('', `${m.meetingPoint}: ${d.meetingPoint.address}`, ...(d.meetingPoint.mapUrl ? [d.meetingPoint.mapUrl] : []));
    if (d.whatToBring.length > 0) lines.push('', `${m.whatToBring}:`, ...d.whatToBring.map((item) => `- ${item}`));
    if (d.policy) lines.push('', `${m.policyHeading}: ${d.policy.join(' ')}`);
    if (d.waiverUrl) lines.push('', m.waiverPendingNote, `${m.completeWaiver}: ${d.waiverUrl}`);
    if (d.qrCid) lines.push('', m.qrCaption);
    if (d.manageUrl) lines.push('', `${m.manageLink(d.reference)}: ${d.manageUrl}`);
    if (d.calendar) lines.push(m.calendarNote);
  }
  if (model.replies) lines.push('', m.replyNote);
  return `${lines.join('\n')}\n`;
}
