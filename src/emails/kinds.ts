// What differs between kinds of e-mail when they are sent, defined by the domains that queue them and
// wired in the composition (src/reactions.ts): a staff e-mail's sealed body is opened, a workflow e-mail's
// manage link is filled in, a waitlist offer notes that its guest was told. The worker only sends.
import type { Kysely } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, EmailKind } from '../db/schema.js';
import type { InstanceKeys } from '../secrets/keys.js';
import type { EmailRow } from './store.js';
import type { MessageParts } from './mailer.js';

export interface SendingContext {
  db: Kysely<Database>;
  /** The instance's keys (sealed bodies, capability links). */
  keys: InstanceKeys;
  /** PUBLIC_URL, for links filled in at sending; without it a link is a path. */
  publicUrl: string;
}

export interface EmailKindHooks {
  /** The text to send, made from the queued body just before sending; the queued body itself by default. */
  textAtSending?(context: SendingContext, email: EmailRow): string | Promise<string>;
  /** The whole message (HTML, attachments, Reply-To) made just before sending; when set, textAtSending is not asked. */
  messageAtSending?(context: SendingContext, email: EmailRow): Promise<MessageParts>;
  /** What the outbox listing shows instead of the body, for a body that carries a secret. */
  hiddenBody?: string;
  /** Runs inside the transaction that marks the e-mail sent. */
  afterSent?(tx: Tx, email: EmailRow): Promise<void>;
}

const kinds = new Map<EmailKind, EmailKindHooks>();

/** Defines what sending an e-mail of `kind` involves (defining a kind again replaces it). */
export function defineEmailKind(kind: EmailKind, hooks: EmailKindHooks): void {
  kinds.set(kind, hooks);
}

export function hooksOf(kind: EmailKind): EmailKindHooks {
  return kinds.get(kind) ?? {};
}
