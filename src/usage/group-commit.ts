// Group commit for usage entries without an Idempotency-Key (POST /meters and POST /meters/batch).
// Under load, many requests arrive while the previous one is still writing; instead of one transaction
// (and, on SQLite with synchronous = FULL, one fsync) each, the requests that queued up meanwhile are
// written together in the next transaction: one INSERT per 1,000 entries, one upsert of the totals, one
// commit. Nothing waits on a timer: a lone request is written after one turn of the event loop, and only
// the requests that arrived meanwhile or would have waited for the write lock anyway are grouped.
//
// What a client sees is unchanged: each entry gets its own ID, and each request its 201 only after the
// transaction that stored all of its entries committed. A request is never split across transactions.
// If a group's transaction fails, nothing of it is stored and each of its requests is written again in
// a transaction of its own, so that one failing request cannot fail the others; a request that fails
// alone gets the error (500) with nothing stored, and can be retried. Not so when the connection was lost
// during COMMIT (CommitOutcomeUnknown): the group may be stored, so every request of it gets that error. Requests with an Idempotency-Key
// do not come here: their key record must commit with their own write (idempotency/service.ts).
import { CommitOutcomeUnknown, type Db } from '../db/connection.js';
import type { UsageEntryInput } from './entry.js';
import { recordUsageEntries, type RecordedUsage } from './service.js';

// Enough for the concurrent batches of a busy server to share one commit; a larger group would only hold
// the write lock longer, as the commit's cost is already shared by then.
const MAX_GROUP_ENTRIES = 8000;

interface Waiting {
  operatorId: number;
  entries: UsageEntryInput[];
  resolve(recorded: RecordedUsage[]): void;
  reject(error: unknown): void;
}

type Recorder = (operatorId: number, entries: UsageEntryInput[]) => Promise<RecordedUsage[]>;

const recorders = new WeakMap<Db, Recorder>();

/** Records a request's entries, all or none, in one transaction shared with the requests that queued up beside it. */
export function recordUsageGrouped(db: Db, operatorId: number, entries: UsageEntryInput[]): Promise<RecordedUsage[]> {
  let recorder = recorders.get(db);
  if (!recorder) recorders.set(db, (recorder = groupRecorder(db)));
  return recorder(operatorId, entries);
}

function groupRecorder(db: Db): Recorder {
  const queue: Waiting[] = [];
  let writing = false;

  const writeGroup = async (group: Waiting[]) => {
    let recorded: Map<Waiting, RecordedUsage[]>;
    try {
      recorded = await db.write(async (tx) => {
        const out = new Map<Waiting, RecordedUsage[]>();
        for (const [operatorId, requests] of byOperator(group)) {
          const stored = await recordUsageEntries(
            tx,
            operatorId,
            requests.flatMap((w) => w.entries),
          );
          let next = 0;
          for (const w of requests) out.set(w, stored.slice(next, (next += w.entries.length)));
        }
        return out;
      });
    } catch (error) {
      // A COMMIT whose outcome is unknown may have stored the group: writing it again could count twice.
      if (group.length === 1 || error instanceof CommitOutcomeUnknown) for (const w of group) w.reject(error);
      else for (const w of group) await writeGroup([w]);
      return;
    }
    for (const w of group) w.resolve(recorded.get(w)!);
  };

  const drain = async () => {
    writing = true;
    try {
      // better-sqlite3 answers synchronously, so a whole transaction can run before the event loop reads
      // the next request off a socket. One turn of the loop first lets every request that has already
      // arrived join the group; on an idle server that costs a lone request well under a millisecond.
      await new Promise((resolve) => setImmediate(resolve));
      while (queue.length > 0) await writeGroup(takeGroup(queue));
    } finally {
      writing = false;
    }
  };

  return (operatorId, entries) =>
    new Promise((resolve, reject) => {
      queue.push({ operatorId, entries, resolve, reject });
      if (!writing) void drain();
    });
}

/** The first request, and the ones after it while they fit within MAX_GROUP_ENTRIES. */
function takeGroup(queue: Waiting[]): Waiting[] {
  let count = queue[0]!.entries.length;
  let take = 1;
  while (take < queue.length && count + queue[take]!.entries.length <= MAX_GROUP_ENTRIES) count += queue[take++]!.entries.length;
  return queue.splice(0, take);
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
