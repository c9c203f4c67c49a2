// Write transactions on either dialect: `writers` builds Db.write and Db.writeGrouped (group commit) from
// a dialect's TransactionControl, and the helpers that store code uses inside a transaction (runAtCommit,
// atCommitValue, readOncePerTransaction, firstInTransaction, signalAtCommit, dialectOf).
import { AsyncResource } from 'node:async_hooks';
import {
  sql,
  type CompiledQuery,
  type RawBuilder,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { Database } from './schema.js';
import type { Signals } from './signals.js';

export type Dialect = 'sqlite' | 'postgres';

/** A query handle that is inside a write transaction. Store functions that must not run outside one take this. */
export type Tx = Kysely<Database> & { readonly __transaction: true };

/**
 * A statement that must be the last of its write transaction (see `runAtCommit`). Its values are written
 * with atCommitValue: on PostgreSQL it has no parameters, so that it travels with COMMIT in one
 * simple-protocol query.
 */
export interface FinalStatement {
  query: CompiledQuery;
  /**
   * Runs before the transaction's other final statements. For one that takes no row lock (an insert of
   * new rows): on PostgreSQL the row locks the others take are then not held while it runs.
   */
  first?: boolean;
  /**
   * When the statement failed, called after the rollback with the database error and a handle outside
   * the transaction: the error the write rejects with instead, or undefined to keep the database's.
   */
  explain(error: unknown, db: Kysely<Database>): Promise<Error | undefined>;
}

const finalStatements = new WeakMap<object, FinalStatement[]>();

/**
 * Queues a statement to run after everything else of the transaction, right before COMMIT. On PostgreSQL
 * it is sent in the same round trip as the COMMIT, so a row lock it takes is held for that one statement
 * and the commit, not for the rest of the transaction, and no turn of our event loop sits in between.
 * It cannot report through its result: it must fail (a constraint) to refuse, which rolls the whole
 * transaction back.
 */
export function runAtCommit(tx: Tx, statement: FinalStatement): void {
  if (statement.query.parameters.length > 0 && dialectOf(tx) === 'postgres')
    throw new Error('A statement run at commit on PostgreSQL must have its values inlined');
  const queued = finalStatements.get(tx);
  if (!queued) return void finalStatements.set(tx, [statement]);
  // A `first` one goes after those queued first before it, ahead of the rest.
  const before = statement.first ? queued.findIndex((queuedOne) => !queuedOne.first) : -1;
  queued.splice(before === -1 ? queued.length : before, 0, statement);
}

/**
 * A value of a statement for runAtCommit: written into the SQL on PostgreSQL, whose final statements go
 * with the COMMIT in one simple-protocol query; a parameter on SQLite, which runs them one by one, so that
 * their text is the same each time and the prepared statement is kept (statement-cache.ts). Written in, the
 * seat update of every booking was parsed anew: 20,000 prepares in the webhook scenario's bursts.
 */
export function atCommitValue<V extends number | string>(tx: Tx, value: V): RawBuilder<V> {
  return dialectOf(tx) === 'postgres' ? sql.lit(value) : sql.val(value);
}

/** The statements queued by runAtCommit, which the transaction now owns. */
function takeFinalStatements(tx: object): FinalStatement[] {
  const queued = finalStatements.get(tx) ?? [];
  finalStatements.delete(tx);
  return queued;
}

/** The first explanation a failed final statement gives for `error`, or the error itself. */
async function explainFailure(statements: FinalStatement[], error: unknown, db: Kysely<Database>): Promise<unknown> {
  for (const statement of statements) {
    const explained = await statement.explain(error, db);
    if (explained) return explained;
  }
  return error;
}

/**
 * COMMIT was sent but its answer was lost with the connection: the transaction may or may not have been
 * stored. A write that fails so must never be run again by us (group commits rerun failed groups): only
 * the client, with its Idempotency-Key, can retry it safely. Only PostgreSQL, over a network, has this
 * case; SQLite's COMMIT either returns or did not happen.
 */
export class CommitOutcomeUnknown extends Error {
  constructor(cause: unknown) {
    super('The database connection was lost during COMMIT: the write may or may not be stored', { cause });
  }
}

const afterCommits = new WeakMap<object, (() => void)[]>();

/**
 * Runs `done` once the transaction has committed, never if it rolls back (a group's member that runs
 * again alone registers anew). For what must count only what is stored, such as the metrics' counters of
 * bookings; `done` must not throw, nor do anything that can fail.
 */
export function afterCommit(tx: Tx, done: () => void): void {
  const queued = afterCommits.get(tx);
  if (queued) queued.push(done);
  else afterCommits.set(tx, [done]);
}

function takeAfterCommits(tx: object): (() => void)[] {
  const queued = afterCommits.get(tx) ?? [];
  afterCommits.delete(tx);
  return queued;
}

const dialects = new WeakMap<object, Dialect>();
/** The transaction's own handle, for the handles its grouped writes get; and what it has memoised. */
const roots = new WeakMap<object, object>();
const memos = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * Reads once per transaction: the first call with `key` runs `read`, later ones in the same transaction
 * (the other writes of its group, say) get the same answer. Only for what the transaction itself does not
 * change, such as the catalogue a booking is placed on; its writes see that data as of the first read.
 */
export function readOncePerTransaction<T>(tx: Tx, key: string, read: () => Promise<T>): Promise<T> {
  const memo = memoOf(tx);
  let answer = memo.get(key) as Promise<T> | undefined;
  if (!answer) memo.set(key, (answer = read()));
  return answer;
}

/** True the first time the transaction (with its group) asks about `key`: for work done once per transaction. */
export function firstInTransaction(tx: Tx, key: string): boolean {
  const memo = memoOf(tx);
  if (memo.has(key)) return false;
  memo.set(key, Promise.resolve());
  return true;
}

function memoOf(tx: Tx): Map<string, Promise<unknown>> {
  const root = roots.get(tx) ?? tx;
  let memo = memos.get(root);
  if (!memo) memos.set(root, (memo = new Map()));
  return memo;
}

/** What a transaction (with its group) signals once it commits: ids per topic. */
const pendingSignals = new WeakMap<object, Map<string, Set<number>>>();

/**
 * Signals `topic` `id` (db/signals.ts) once the transaction commits, to this process's listeners before
 * the write returns and to the other processes: for caches of what the transaction changed. Nothing when
 * it rolls back; once per transaction and id, however often it is asked (one Map lookup: cheap enough
 * for every booking). A group's signals go out with its shared commit; a member that failed alone
 * leaves its signals to the group's commit, which costs a needless drop of a cache at worst.
 */
export function signalAtCommit(tx: Tx, topic: string, id: number): void {
  const root = roots.get(tx) ?? tx;
  let topics = pendingSignals.get(root);
  if (!topics) pendingSignals.set(root, (topics = new Map()));
  let ids = topics.get(topic);
  if (!ids) topics.set(topic, (ids = new Set()));
  ids.add(id);
}

function takeSignals(tx: object): Map<string, Set<number>> | undefined {
  const topics = pendingSignals.get(tx);
  pendingSignals.delete(tx);
  return topics;
}

function announce(signals: Pick<Signals, 'committed'>, topics: Map<string, Set<number>> | undefined): void {
  if (!topics) return;
  for (const [topic, ids] of topics) for (const id of ids) signals.committed(topic, id);
}

/** The dialect of a transaction, for the rare statement that must be written differently on each. */
export function dialectOf(tx: Tx): Dialect {
  const dialect = dialects.get(tx);
  if (!dialect) throw new Error('Not a transaction of Db.write');
  return dialect;
}

/** How a dialect runs transactions; `writers` builds `write` and `writeGrouped` from it. */
export interface TransactionControl {
  dialect: Dialect;
  /** Where signalAtCommit's signals go once a transaction committed. */
  signals: Pick<Signals, 'committed'>;
  /** Runs body on a connection of its own (SQLite: the one connection, under Kysely's mutex). */
  connection<T>(body: (conn: Kysely<Database>) => Promise<T>): Promise<T>;
  begin: string;
  /**
   * What begins a transaction whose commit need not wait for the disk (Db.write's `durable: false`), and
   * what to run after it ends, committed or not, to put the connection back as it was.
   */
  relaxed: { begin: string[]; after: string[] };
  /**
   * How many groups of one key may run at once, each in its own transaction. 1 also means one queue for
   * every key: SQLite has one connection and one write lock, so there is no point in more.
   */
  groupsAtOnce: number;
  /** Members per group. */
  maxGroup: number;
  /** Runs the final statements, then COMMIT. */
  commit(conn: Kysely<Database>, statements: FinalStatement[]): Promise<void>;
  rollback(conn: Kysely<Database>): Promise<void>;
}

/** What a grouped write ran: whether everything was a SELECT that succeeded, so a failure left nothing behind. */
class StatementLog implements KyselyPlugin {
  #wrote = false;
  readonly #running = new Set<QueryId>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    // A SELECT can write through a data-modifying WITH, so only a plain one counts as a read.
    if (args.node.kind !== 'SelectQueryNode' || args.node.with !== undefined) this.#wrote = true;
    this.#running.add(args.queryId);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    // A query compiled elsewhere and run with executeQuery skips transformQuery: count it as a write.
    if (!this.#running.delete(args.queryId)) this.#wrote = true;
    return args.result;
  }

  onlyReadsSucceeded(): boolean {
    return !this.#wrote && this.#running.size === 0;
  }
}

export interface WriteOptions {
  /**
   * false: the commit does not wait for the disk (SQLite: synchronous = NORMAL for it; PostgreSQL:
   * synchronous_commit off). A crash of the machine or of PostgreSQL may lose it, never tear it, and a
   * later durable commit makes it durable too (both logs are written in order). Only for writes whose loss
   * is harmless because they are redone, such as the webhook worker's record of what it delivered.
   */
  durable?: boolean;
}

interface Member {
  fn: (tx: Tx) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** The write transactions of a Db. */
export interface Writers {
  /** Runs fn in one write transaction: committed when fn resolves, rolled back when it throws. */
  write<T>(fn: (tx: Tx) => Promise<T>, options?: WriteOptions): Promise<T>;
  /**
   * Runs fn like `write`, but in a transaction it may share with the grouped writes of the same `key` that
   * queue up meanwhile (on SQLite, whatever their key: every write there takes the one write lock). Each
   * answers after the shared COMMIT. One that throws having only read rejects alone; if one throws after
   * writing, or the shared transaction fails, nothing of the group is stored and each runs again, alone,
   * for its own answer (unless the connection was lost during COMMIT: then each rejects with
   * CommitOutcomeUnknown). So fn must keep all of its effects in the transaction, and may run twice. Meant
   * for writes that would queue for the same row lock anyway (the bookings of one timeslot): they then pay
   * one commit, one fsync, per group instead of one each.
   */
  writeGrouped<T>(key: string, fn: (tx: Tx) => Promise<T>): Promise<T>;
}

export function writers(control: TransactionControl): Writers {
  /** One transaction; `explain` lets the final statements explain their failure. */
  const transact = <T>(fn: (tx: Tx) => Promise<T>, explain: boolean, durable = true): Promise<T> =>
    control.connection(async (conn) => {
      const { begin, after } = durable ? { begin: [control.begin], after: [] } : control.relaxed;
      try {
        for (const statement of begin) await sql.raw(statement).execute(conn);
        dialects.set(conn, control.dialect);
        let last: FinalStatement[] = [];
        try {
          const result = await fn(conn as Tx);
          last = takeFinalStatements(conn);
          await control.commit(conn, last);
          for (const done of takeAfterCommits(conn)) done();
          announce(control.signals, takeSignals(conn));
          return result;
        } catch (error) {
          takeFinalStatements(conn);
          takeAfterCommits(conn);
          const signals = takeSignals(conn);
          if (error instanceof CommitOutcomeUnknown) {
            announce(control.signals, signals); // perhaps stored: a cache dropped for nothing costs little
            throw error; // nothing left to roll back on that connection
          }
          await control.rollback(conn);
          throw explain ? await explainFailure(last, error, conn) : error;
        } finally {
          memos.delete(conn);
        }
      } finally {
        for (const statement of after) await sql.raw(statement).execute(conn);
      }
    });
  const write = <T>(fn: (tx: Tx) => Promise<T>, options: WriteOptions = {}): Promise<T> => transact(fn, true, options.durable);

  type Outcome = { ok: true; result: unknown } | { ok: false; error: unknown };

  // A group runs its members one after the other in one transaction, and keeps their final statements for
  // its COMMIT: on PostgreSQL the row lock they take (the timeslot's) is then held once per group for that
  // one round trip, and several groups of one key can do the rest of their work at once. There is no
  // savepoint per member (a round trip and a subtransaction each): a member that fails having only read
  // fails alone; one that fails after writing, or with a failed statement (which aborts a PostgreSQL
  // transaction), fails the group, and every member then runs again alone.
  const runGroup = async (group: Member[]): Promise<void> => {
    const outcomes = new Map<Member, Outcome>();
    try {
      await transact(async (tx) => {
        const finals: FinalStatement[] = [];
        for (const member of group) {
          const log = new StatementLog();
          const memberTx = tx.withPlugin(log) as Tx;
          dialects.set(memberTx, control.dialect);
          roots.set(memberTx, tx);
          try {
            outcomes.set(member, { ok: true, result: await member.fn(memberTx) });
            finals.push(...takeFinalStatements(memberTx));
            for (const done of takeAfterCommits(memberTx)) afterCommit(tx, done);
          } catch (error) {
            takeFinalStatements(memberTx);
            takeAfterCommits(memberTx);
            if (!log.onlyReadsSucceeded()) throw error;
            outcomes.set(member, { ok: false, error });
          }
        }
        for (const statement of finals) runAtCommit(tx, statement);
      }, false);
    } catch (error) {
      if (error instanceof CommitOutcomeUnknown) {
        for (const member of group) member.reject(error);
        return;
      }
      // Nothing of the group is stored (a member failed after writing, a final statement refused, or the
      // transaction failed), and a member's own failure may have come from what the others had written:
      // each member runs again in a transaction of its own, for its own answer.
      for (const member of group) write(member.fn).then(member.resolve, member.reject);
      return;
    }
    for (const [member, outcome] of outcomes) {
      if (outcome.ok) member.resolve(outcome.result);
      else member.reject(outcome.error);
    }
  };

  const queues = new Map<string, { members: Member[]; groups: number }>();
  const drain = async (key: string) => {
    const queue = queues.get(key)!;
    queue.groups += 1;
    // better-sqlite3 answers synchronously, so a whole transaction can run before the event loop reads the
    // next request: one turn of the loop first lets the requests that have already arrived join the group.
    await new Promise((resolve) => setImmediate(resolve));
    while (queue.members.length > 0) await runGroup(queue.members.splice(0, control.maxGroup));
    queue.groups -= 1;
    if (queue.groups === 0) queues.delete(key);
  };

  const writeGrouped = <T>(key: string, fn: (tx: Tx) => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const queueKey = control.groupsAtOnce === 1 ? '' : key;
      let queue = queues.get(queueKey);
      if (!queue) queues.set(queueKey, (queue = { members: [], groups: 0 }));
      // The member runs in the group's transaction, started by whichever request came first: in the async
      // context of its own request all the same (the audit log's actor, src/access/actor.ts). Not through
      // AsyncResource.bind, which on Node 20 defines deprecated accessors on every function it binds (2% of
      // the service's CPU under a burst of bookings).
      const context = new AsyncResource('slotbook.writeGrouped');
      const member = (tx: Tx) => context.runInAsyncScope(fn, undefined, tx);
      queue.members.push({ fn: member, resolve: resolve as (value: unknown) => void, reject });
      if (queue.groups < control.groupsAtOnce) void drain(queueKey);
    });

  return { write, writeGrouped };
}
