// Group commit for single usage entries. Under load, many POST /meters arrive while the previous one is
// still writing; instead of one transaction (and, on SQLite with synchronous = FULL, one fsync) each, the
// ones that queued up meanwhile are written together in the next transaction, through the same batch
// path as POST /meters/batch. Nothing waits on a timer: a lone request is written after one turn of the
// event loop, and only the requests that arrived meanwhile or would have waited for the write lock anyway
// are grouped.
//
// What a client sees is unchanged: each entry gets its own ID and its 201 only after the transaction that
// stored it committed. If that transaction fails, every request of the group gets the error (500) and
// nothing of the group is stored, so each can be retried. Entries with an Idempotency-Key do not come
// here: their key record must commit with their own write (idempotency/service.ts).
import type { Db } from '../db/connection.js';
import type { UsageEntryInput } from './entry.js';
import { recordUsageEntries, type RecordedUsage } from './service.js';

// One INSERT statement's worth (store.ts writes 1,000 rows per statement).
const MAX_GROUP = 1000;

interface Waiting {
  operatorId: number;
  entry: UsageEntryInput;
  resolve(recorded: RecordedUsage): void;
  reject(error: unknown): void;
}

type Recorder = (operatorId: number, entry: UsageEntryInput) => Promise<RecordedUsage>;

const recorders = new WeakMap<Db, Recorder>();

/** Records one entry in its own transaction or together with the entries that queued up behind a write. */
export function recordUsageGrouped(db: Db, operatorId: number, entry: UsageEntryInput): Promise<RecordedUsage> {
  let recorder = recorders.get(db);
  if (!recorder) recorders.set(db, (recorder = groupRecorder(db)));
  return recorder(operatorId, entry);
}

function groupRecorder(db: Db): Recorder {
  const queue: Waiting[] = [];
  let writing = false;

  const writeGroup = async (group: Waiting[]) => {
    try {
      const recorded = await db.write(async (tx) => {
        const out = new Map<Waiting, RecordedUsage>();
        for (const [operatorId, waiting] of byOperator(group)) {
          const stored = await recordUsageEntries(tx, operatorId, waiting.map((w) => w.entry));
          waiting.forEach((w, i) => out.set(w, stored[i]!));
        }
        return out;
      });
      for (const w of group) w.resolve(recorded.get(w)!);
    } catch (error) {
      for (const w of group) w.reject(error);
    }
  };

  const drain = async () => {
    writing = true;
    try {
      // better-sqlite3 answers synchronously, so a whole transaction can run before the event loop reads
      // the next request off a socket. One turn of the loop first lets every request that has already
      // arrived join the group; on an idle server that costs a lone request well under a millisecond.
      await new Promise((resolve) => setImmediate(resolve));
      while (queue.length > 0) await writeGroup(queue.splice(0, MAX_GROUP));
    } finally {
      writing = false;
    }
  };

  return (operatorId, entry) =>
    new Promise((resolve, reject) => {
      queue.push({ operatorId, entry, resolve, reject });
      if (!writing) void drain();
    });
}

function byOperator(group: Waiting[]): Map<number, Waiting[]> {
  const out = new Map<number, Waiting[]>();
  for (const w of group) {
    const list = out.get(w.operatorId);
    if (list) list.push(w);
    else out.set(w.operatorId, [w]);
  }
  return out;
}
