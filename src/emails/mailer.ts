// Delivery through nodemailer: SMTP when SMTP_URL is set; otherwise the outbox is the destination and
// nodemailer's JSON transport only composes the message (so addresses are checked the same way), and the
// e-mail counts as delivered to the outbox the dashboard shows.
import { traceOutbound } from '../lib/tracing.js';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';
import { isEmailAddress } from '../lib/email-address.js';

export interface OutgoingMessage extends MessageParts {
  from: string;
  to: string;
  subject: string;
}

/** What an e-mail says: always a plain-text part; an HTML part, Reply-To and attachments where its kind composes them (kinds.ts). */
export interface MessageParts {
  text: string;
  html?: string;
  replyTo?: string;
  attachments?: { filename: string; content: Buffer | string; contentType: string; cid?: string }[];
}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  /** Resolves with the message ID once the server accepted the message; rejects when it did not. */
  send(message: OutgoingMessage): Promise<{ messageId: string }>;
  close(): void;
}

/**
 * A recipient that is not exactly one address (lib/email-address.ts): nodemailer would read
 * "a@x.example, b@y.example" as two recipients, and a guest's manage link would go to both. Never retried.
 */
export class RecipientRefused extends Error {
  constructor() {
    super('Not sent: the recipient is not exactly one e-mail address');
    this.name = 'RecipientRefused';
  }
}

// Shorter than the worker's claim on an e-mail (worker.ts), so a hung server cannot make a send outlive
// its claim and let another process send the same e-mail again.
const SMTP_TIMEOUT_MS = 30_000;

export function createMailer(config: Pick<Config, 'smtpUrl'>): Mailer {
  const transporter = config.smtpUrl
    ? nodemailer.createTransport({
        url: config.smtpUrl,
        connectionTimeout: SMTP_TIMEOUT_MS,
        greetingTimeout: SMTP_TIMEOUT_MS,
        socketTimeout: SMTP_TIMEOUT_MS,
      })
    : nodemailer.createTransport({ jsonTransport: true });
  return {
    transport: config.smtpUrl ? 'smtp' : 'outbox',
    async send(message) {
      if (!isEmailAddress(message.to)) throw new RecipientRefused();
      // The span says that an e-mail went out and how long the server took; never to whom or what.
      const info = await traceOutbound(
        'SMTP send',
        { 'slotbook.mail_transport': config.smtpUrl ? 'smtp' : 'outbox' },
        async (): Promise<{ messageId?: unknown }> => transporter.sendMail(message),
      );
      return { messageId: String(info.messageId ?? '') };
    },
    close: () => transporter.close(),
  };
}
