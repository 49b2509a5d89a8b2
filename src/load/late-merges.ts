import type { ServiceClient } from '../client/index.js';
import type { LoadCounts } from './types.js';
import type { NormalizedRecord } from '../normalize/record.js';
import type { LedgerScope } from '../state/index.js';
import { chunkBy, updateBytes, type ChunkLimits } from './chunks.js';
import type { Planned } from './resolve.js';
import { updateChunk, type SendEvents } from './send.js';
import { syncReminders } from './reminders.js';
import type { LoadTally } from './tally.js';
import { toWrite, writeHash, type ReferenceIds } from './write-object.js';

export interface LateMergeContext {
  client: ServiceClient;
  scope: LedgerScope;
  ids: ReferenceIds;
  limits: ChunkLimits;
  tally: LoadTally;
  totals: LoadCounts;
  /** The run's reminder counts: a duplicate may bring reminders of its own. */
  reminders: { created: number; updated: number };
  /** The run was stopped: nothing more is sent, and what is left is said to be pending. */
  stopped: () => boolean;
}

/**
 * A run that loads while it reads sends a record before its inputs are read to the end; a later
 * duplicate then merges into it (staging.ts) after its contact was created. Here each such contact
 * gets the merged record with E1, as a rerun would send a changed record: the record stays counted
 * `created` (one contact, now whole). One the target refuses is `failed`, its issue saying the
 * contact was loaded without its duplicates' values. A run stopped before sending them leaves them
 * `created` as they were loaded: the ledger keeps the first record's hash, so the same command
 * sends the merged one. A record whose create did not complete keeps the outcome it has, and one
 * the merge did not change sends nothing.
 */
export const sendLateMerges = async (
  batches: Iterable<NormalizedRecord[]>,
  ctx: LateMergeContext,
): Promise<void> => {
  for (const batch of batches) {
    const known = ctx.scope.getContacts(batch.map((r) => r.key));
    const updates: Planned[] = [];
    for (const record of batch) {
      const entry = known.get(record.key);
      if (!entry) continue;
      const { write, json } = toWrite(record, ctx.ids);
      const hash = writeHash(json);
      if (hash !== entry.hash) updates.push({ record, write, json, hash, contactId: entry.contactId });
    }
    const { chunks, oversize } = chunkBy(updates, ctx.limits, updateBytes);
    for (const planned of oversize) {
      ctx.totals.created -= 1;
      ctx.tally.failRecord(
        planned.record,
        'record_too_large',
        `${withoutDuplicates}: together they are larger than one request may be (${ctx.limits.bytes} bytes)`,
      );
    }
    for (const chunk of chunks) {
      if (ctx.stopped()) return;
      // Not journaled for undo: the contact was created by this run, and undo archives it whole.
      try {
        await updateChunk(chunk, { client: ctx.client, scope: ctx.scope, events: events(ctx) });
      } catch (error) {
        // Out of retries: the run stops (the caller); these records were not made whole.
        for (const planned of chunk.filter((p) => p.outcome === undefined)) {
          planned.outcome = 'failed';
          ctx.totals.created -= 1;
          ctx.tally.failRecord(
            planned.record,
            'load_failed',
            `${withoutDuplicates}: ${describe(error)}; the same command sends them again`,
          );
        }
        throw error;
      }
      const { created, updated } = await syncReminders(
        chunk.filter((p) => p.outcome === 'updated'),
        { client: ctx.client, scope: ctx.scope, dryRun: false },
      );
      ctx.reminders.created += created;
      ctx.reminders.updated += updated;
    }
  }
};

const events = (ctx: LateMergeContext): SendEvents => ({
  // Counted `created` when its create was answered.
  settled: () => undefined,
  failed: (planned, error) => {
    ctx.totals.created -= 1;
    ctx.tally.failRecord(
      planned.record,
      error.status === 413 ? 'record_too_large' : 'service_rejected',
      `${withoutDuplicates}, which the target refused: ${error.message}`,
    );
  },
  // Deleted on the target since this run created it (updateChunk made the ledger forget it): it
  // was created, and the same command creates it again.
  gone: () => undefined,
});

const withoutDuplicates = 'its contact was loaded without the values of its later duplicates';

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));
