// Signals between the processes on one database, for the caches each process keeps (verified API keys,
// partner answers): "key 12 was revoked", "operator 7 wrote". A process that publishes has already acted
// on its own signal; subscribers hear the other processes'. Best effort by design: a signal lost (the
// database away, a listener reconnecting) costs freshness only up to each cache's own time limit, and a
// listener that (re)connects first hears "anything may have changed" (a signal without a topic).
//
// PostgreSQL: NOTIFY on one channel, heard on one LISTEN connection per process that reconnects after a
// loss; the signals of 10 ms travel in one NOTIFY, so a busy process sends at most 100 a second. SQLite has no such
// thing, but another process's commit changes the file's data_version: a process that polls it every
// 100 ms hears "anything may have changed" within that time of any write by another process.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Database } from './schema.js';

export interface Signal {
  topic: string;
  id: number;
}

/** Hears another process's signal, or undefined: anything may have changed (forget everything). */
export type SignalListener = (signal: Signal | undefined) => void;

export interface Signals {
  /** Tells the other processes on this database. */
  publish(topic: string, id: number): void;
  /**
   * A change this process committed (transactions.ts, signalAtCommit): its own listeners hear it at once,
   * before the write's caller goes on, and the other processes as publish() tells them.
   */
  committed(topic: string, id: number): void;
  subscribe(listener: SignalListener): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'slotbook_signals';
// NOTIFY takes up to 8000 bytes; a larger batch is sent as "anything may have changed".
const MAX_PAYLOAD = 7900;
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;
const CONNECT_TIMEOUT_MS = 5_000;
const DATA_VERSION_POLL_MS = 100;
const BATCH_MS = 10;

interface Payload {
  /** The publishing process, which does not act on its own signals twice. */
  from: string;
  /** Ids per topic; absent: anything may have changed. */
  topics?: Record<string, number[]>;
}

function notify(listeners: Set<SignalListener>, signal: Signal | undefined): void {
  for (const listener of listeners) listener(signal);
}

export class PostgresSignals implements Signals {
  readonly #url: string;
  readonly #kysely: Kysely<Database>;
  readonly #self = randomUUID();
  readonly #listeners = new Set<SignalListener>();
  readonly #outbox = new Map<string, Set<number>>();
  #flushing = false;
  #client: pg.Client | undefined;
  #started = false;
  #closed = false;
  #retryMs = RECONNECT_FIRST_MS;
  #retry: NodeJS.Timeout | undefined;

  constructor(url: string, kysely: Kysely<Database>) {
    this.#url = url;
    this.#kysely = kysely;
  }

  /** Whether this process is listening now (while not, caches rely on their time limits alone). */
  get listening(): boolean {
    return this.#client !== undefined;
  }

  publish(topic: string, id: number): void {
    if (this.#closed) return;
    let ids = this.#outbox.get(topic);
    if (!ids) this.#outbox.set(topic, (ids = new Set()));
    ids.add(id);
    if (this.#flushing) return;
    this.#flushing = true;
    setTimeout(() => void this.#flush(), BATCH_MS).unref();
  }

  committed(topic: string, id: number): void {
    notify(this.#listeners, { topic, id });
    this.publish(topic, id);
  }

  subscribe(listener: SignalListener): () => void {
    this.#listeners.add(listener);
    if (!this.#started) {
      this.#started = true;
      void this.#listen();
    }
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#outbox.size > 0) await this.#flush(); // a revocation just before shutdown still goes out
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  async #flush(): Promise<void> {
    this.#flushing = false;
    if (this.#outbox.size === 0) return;
    const topics = Object.fromEntries([...this.#outbox].map(([topic, ids]) => [topic, [...ids]]));
    this.#outbox.clear();
    let payload = JSON.stringify({ from: this.#self, topics } satisfies Payload);
    if (payload.length > MAX_PAYLOAD) payload = JSON.stringify({ from: this.#self } satisfies Payload);
    // Through the pool, like the writes it follows: lost with the database, and then the time limits apply.
    await sql`SELECT pg_notify(${CHANNEL}, ${payload})`.execute(this.#kysely).catch(() => undefined);
  }

  async #listen(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({
      connectionString: this.#url,
      application_name: 'slotbook-signals',
      keepAlive: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    let lost = false;
    const onLoss = () => {
      if (lost) return;
      lost = true;
      if (this.#client === client) this.#client = undefined;
      client.end().catch(() => undefined);
      if (this.#closed) return;
      this.#retry = setTimeout(() => void this.#listen(), this.#retryMs);
      this.#retry.unref();
      this.#retryMs = Math.min(RECONNECT_MAX_MS, this.#retryMs * 2);
    };
    // A listener on 'error' always: without one, a lost connection would end the process.
    client.on('error', onLoss);
    client.on('end', onLoss);
    client.on('notification', (message) => this.#receive(message.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch {
      onLoss();
      return;
    }
    if (this.#closed || lost) return void client.end().catch(() => undefined);
    this.#client = client;
    this.#retryMs = RECONNECT_FIRST_MS;
    // Whatever was published while this process was not listening is unknown: start afresh.
    notify(this.#listeners, undefined);
  }

  #receive(text: string | undefined): void {
    let payload: Payload;
    try {
      payload = JSON.parse(text ?? '') as Payload;
    } catch {
      return;
    }
    if (payload.from === this.#self) return;
    if (!payload.topics) {
      notify(this.#listeners, undefined);
      return;
    }
    for (const [topic, ids] of Object.entries(payload.topics)) {
      for (const id of ids) notify(this.#listeners, { topic, id });
    }
  }
}

export class SqliteSignals implements Signals {
  readonly #raw: SQLite.Database;
  readonly #listeners = new Set<SignalListener>();
  #poll: NodeJS.Timeout | undefined;
  #version = 0;

  constructor(raw: SQLite.Database) {
    this.#raw = raw;
  }

  /** Nothing to send: the other processes see that the file changed. */
  publish(): void {}

  committed(topic: string, id: number): void {
    notify(this.#listeners, { topic, id });
  }

  subscribe(listener: SignalListener): () => void {
    this.#listeners.add(listener);
    if (!this.#poll) {
      this.#version = this.#dataVersion();
      this.#poll = setInterval(() => {
        const version = this.#dataVersion();
        if (version === this.#version) return;
        this.#version = version;
        notify(this.#listeners, undefined);
      }, DATA_VERSION_POLL_MS);
      this.#poll.unref();
    }
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    clearInterval(this.#poll);
  }

  /** Changes when another connection commits to the file; never for this connection's own commits. */
  #dataVersion(): number {
    return this.#raw.pragma('data_version', { simple: true }) as number;
  }
}
