// A real SMTP server inside the test run (smtp-server on 127.0.0.1, a free port) that keeps what it
// receives and can be told to refuse messages, as a mail server that is down or rejecting would.
import { SMTPServer } from 'smtp-server';
import { parseMime, partOf } from './mime.js';

export interface ReceivedMessage {
  from: string;
  to: string[];
  subject: string;
  /** The plain-text part (the whole body of a message that has only one), decoded, with \n line ends. */
  text: string;
  /** The HTML part, decoded, if the message has one. */
  html: string | undefined;
  raw: string;
}

export interface TestSmtp {
  url: string;
  messages: ReceivedMessage[];
  /** While true, every message is refused with a temporary failure (451). */
  failing: boolean;
  /** How long the server takes to accept a message once its data has arrived (a slow server). */
  delayMs: number;
  /** Messages whose data began to arrive (accepted or not yet). */
  receiving: number;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const state: TestSmtp = { url: '', messages: [], failing: false, delayMs: 0, receiving: 0, close: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      state.receiving += 1;
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => setTimeout(accept, state.delayMs));
      const accept = () => {
        if (state.failing) {
          callback(Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const split = raw.indexOf('\r\n\r\n');
        const headers = raw.slice(0, split);
        const subject = /^Subject: (.*(?:\r\n[ \t].*)*)/im.exec(headers)?.[1]?.replace(/\r\n[ \t]/g, ' ') ?? '';
        const message = parseMime(raw);
        state.messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject,
          text: (partOf(message, 'text/plain') ?? message).content.toString('utf8').replace(/\r\n/g, '\n'),
          html: partOf(message, 'text/html')?.content.toString('utf8'),
          raw,
        });
        callback();
      };
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as { port: number };
  state.url = `smtp://127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
