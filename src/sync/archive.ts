import type { ServiceClient } from '../client/index.js';
import type { ChangeSink } from '../load/previews.js';
import type { StepHook } from '../load/steps.js';
import type { PendingArchive, SyncLedger } from '../state/index.js';
import { archiveRows } from './changes.js';
import { findContact } from './find-contact.js';

export interface ArchiveOptions {
  ledger: SyncLedger;
  runId: string;
  chunkSize: number;
  /** Absent: a dry run, nothing sent or recorded. */
  client?: ServiceClient;
  /** Archives a killed run sent with no answer recorded, by contact id. */
  pending: ReadonlyMap<string, PendingArchive>;
  changes?: ChangeSink;
  signal?: AbortSignal;
  onStep?: StepHook<'sync-archived'>;
}

/**
 * Archives `gone` a chunk at a time. Each chunk is journaled (`beginArchive`, on disk) before it
 * is sent and recorded as applied once answered, so a run killed in between leaves it pending.
 * The next run looks a pending archive up on the target first: one the target already applied is
 * recorded, not sent again (E1 has no Idempotency-Key to make a resend a replay). Returns how
 * many were archived (dry: would be).
 */
export const archiveGone = async (gone: readonly string[], o: ArchiveOptions): Promise<number> => {
  let archived = 0;
  for (let at = 0; at < gone.length; at += o.chunkSize) {
    if (o.signal?.aborted) break;
    const chunk = gone.slice(at, at + o.chunkSize);
    if (o.client) {
      const done = await appliedAlready(o.client, o.ledger, chunk, o.pending);
      if (done.length > 0) o.ledger.markArchived(o.runId, done, true, seqsOf(done, o.pending));
      const send = chunk.filter((id) => !done.includes(id));
      if (send.length > 0) {
        const journaled = o.ledger.beginArchive(o.runId, send);
        await o.client.bulkUpdateContacts(
          send.map((contactId) => ({ contactId, data: { is_archived: true } })),
        );
        o.onStep?.('sync-archived');
        o.ledger.markArchived(o.runId, send, true, [...journaled, ...seqsOf(send, o.pending)]);
      }
    }
    archived += chunk.length;
    o.changes?.add(archiveRows(chunk));
  }
  return archived;
};

const seqsOf = (ids: readonly string[], pending: ReadonlyMap<string, PendingArchive>): number[] =>
  ids.flatMap((id) => {
    const p = pending.get(id);
    return p ? [p.seq] : [];
  });

/** Of the chunk's pending archives, those the target shows archived (a contact not found is sent). */
const appliedAlready = async (
  client: ServiceClient,
  ledger: SyncLedger,
  chunk: readonly string[],
  pending: ReadonlyMap<string, PendingArchive>,
): Promise<string[]> => {
  const inFlight = chunk.filter((id) => pending.has(id));
  if (inFlight.length === 0) return [];
  const { mine } = ledger.lookUp(inFlight);
  const found = await Promise.all(inFlight.map((id) => findContact(client, id, mine.get(id)?.sent)));
  return inFlight.filter((_, i) => found[i]?.is_archived === true);
};
