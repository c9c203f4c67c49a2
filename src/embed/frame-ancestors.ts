// Who may show an operator's booking pages in a frame (the embed, docs/embed.md). Until the operator lists
// websites (shop settings: AllowedEmbedOrigins), any website may: that is what makes the embed work with
// nothing to configure. Once the list is set, the pages' Content-Security-Policy says
// `frame-ancestors 'self' <the list>` and browsers refuse to show them anywhere else (clickjacking).
// helmet's X-Frame-Options: DENY (on every answer) is removed from these pages: it would forbid every
// frame, and browsers that know frame-ancestors ignore it anyway.
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { profileEmbedOrigins } from '../settings/profile.js';

/** The frame-ancestors sources for this list of allowed origins (already normalised by the settings). */
export function frameAncestors(origins: readonly string[]): string {
  return origins.length === 0 ? '*' : ["'self'", ...origins].join(' ');
}

/** The operator's frame-ancestors sources (one small read). */
export async function operatorFrameAncestors(db: Kysely<Database>, operatorId: number): Promise<string> {
  return frameAncestors(await profileEmbedOrigins(db, operatorId));
}

/** `policy` with its frame-ancestors directive replaced (or added). */
export function withFrameAncestors(policy: string | undefined, sources: string): string {
  const kept = (policy ?? '')
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && !/^frame-ancestors(\s|$)/i.test(directive));
  return [...kept, `frame-ancestors ${sources}`].join('; ');
}

/**
 * Lets the answer be framed by `sources`: call it from an onSend hook (or just before sending), after the
 * page's own Content-Security-Policy is set, so that its frame-ancestors is the one that counts.
 */
export function allowFraming(reply: FastifyReply, sources: string): void {
  const current = reply.getHeader('content-security-policy') ?? reply.raw.getHeader('content-security-policy');
  reply.raw.removeHeader('x-frame-options');
  reply.removeHeader('x-frame-options');
  reply.raw.removeHeader('content-security-policy');
  reply.header('content-security-policy', withFrameAncestors(typeof current === 'string' ? current : undefined, sources));
}
