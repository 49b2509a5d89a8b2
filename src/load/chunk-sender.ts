import { isRequestError, type RequestError } from '../client/errors.js';
import type { ServiceClient } from '../client/index.js';
import type {
  CreateJournal,
  KeyHonouring,
  KnownImages,
  KnownReminders,
  PendingCreate,
  RunJournal,
  ScopeContacts,
  ScopeIdentities,
} from '../state/index.js';
import { isImportError } from '../core/errors/index.js';
import { createBytes, updateBytes } from './chunks.js';
import { previewUpdate, updateEffect } from './previews.js';
import { reclaimAfter } from './reclaim.js';
import { syncReminders } from './reminders.js';
import type { Planned } from './resolve.js';
import { createChunk, pendingCreate, updateChunk, type SendEvents } from './send.js';
import type { StepHook } from './steps.js';
import type { LoadTally } from './tally.js';
import { recordIdentities } from '../normalize/identity.js';

export interface Chunk {
  kind: 'create' | 'update' | 'unchanged';
  items: Planned[];
  /** A create's key and body, made with the rest of its batch (ChunkSender.prepare). */
  prepared?: PendingCreate;
}

/** The parts of the ledger sending writes: the create journal, contacts, identities, images, reminders, effects. */
type SenderLedger = CreateJournal &
  ScopeContacts &
  ScopeIdentities &
  KnownImages &
  KeyHonouring &
  KnownReminders &
  RunJournal;

/** What a chunk's request carries, as measured when it was made (chunks.ts); unchanged ones send nothing. */
export const chunkBytes = (chunk: Chunk): number =>
  chunk.kind === 'unchanged'
    ? 0
    : chunk.items.reduce((sum, p) => sum + (chunk.kind === 'create' ? createBytes(p) : updateBytes(p)), 0);

/**
 * Sends one chunk and settles its records: a create (its Idempotency-Key `<run>-c<n>`), or an E1
 * update whose before-images are journaled first; contacts gone from the target are created again;
 * then the reminders of the records loaded. Without a live target (a dry run) it only counts.
 */
export class ChunkSender {
  readonly reminders = { created: 0, updated: 0 };
  private chunkSeq = 0;

  constructor(
    private readonly options: {
      client?: ServiceClient;
      scope?: SenderLedger;
      /** Requests go out (not a dry run, a client and a ledger). */
      live: boolean;
      dryRun: boolean;
      runId: string;
      tally: LoadTally;
      onStep?: StepHook;
      /** Called after a large request body (reclaim.ts); the host process's collector. */
      collectGarbage?: () => void;
    },
  ) {}

  /**
   * Gives each create chunk of a batch its Idempotency-Key and body, in input order. Nothing is
   * written to the ledger yet: a chunk is journaled when its request is handed to the network
   * (send.ts), so a chunk still waiting for a place when the run stops leaves nothing pending.
   */
  prepare(chunks: readonly Chunk[]): void {
    const { scope, live, runId } = this.options;
    if (!live || !scope) return;
    for (const chunk of chunks) {
      if (chunk.kind === 'create')
        chunk.prepared = pendingCreate(chunk.items, runId, `${runId}-c${this.chunkSeq++}`);
    }
  }

  /** The window's task for a chunk: its requests, then memory reclaimed after a large body. */
  task(chunk: Chunk, bytes: number): () => Promise<void> {
    if (chunk.kind === 'unchanged') return () => this.withReminders(chunk.items);
    return () => this.send(chunk).finally(() => reclaimAfter(bytes, this.options.collectGarbage));
  }

  private async send(chunk: Chunk): Promise<void> {
    const { client, scope, live, tally } = this.options;
    if (!live || !client || !scope) {
      chunk.items.forEach((p) => (p.outcome = chunk.kind === 'create' ? 'created' : 'updated'));
      tally.settle(chunk.kind === 'create' ? 'created' : 'updated', chunk.items);
      await this.withReminders(chunk.items);
      return;
    }
    const gone: Planned[] = [];
    try {
      if (chunk.kind === 'create')
        await this.create(chunk.items, client, scope, this.events(gone), chunk.prepared);
      else {
        // The before-images are on disk before the request leaves: no crash loses what to undo.
        scope.recordUpdates(
          this.options.runId,
          chunk.items.map((p) => updateEffect(p, previewUpdate(p))),
        );
        await updateChunk(chunk.items, { client, scope, events: this.events(gone) });
      }
      // A contact deleted on the target since it was loaded is created again.
      if (gone.length > 0) {
        gone.forEach((p) => {
          p.contactId = undefined;
          p.outcome = undefined;
        });
        await this.create(gone, client, scope, this.events([]));
      }
    } catch (error) {
      // Stopped while waiting for the target (Ctrl-C, or a wait past --max-wait): the waiting
      // request was not applied, so its records are pending; the ledger keeps its create only if an
      // earlier attempt of it had left (it is journaled as its first attempt is handed over).
      // A ledger that cannot be written stops the run before or after a request: what was not
      // sent is pending (the same command sends it), what the target took is settled, none failed.
      if (stoppedWaiting(error)) tally.pendingAll(chunk.items);
      else if (!isStateError(error)) tally.failAll(chunk.items, error);
      throw error;
    }
    await this.withReminders(chunk.items.filter((p) => p.outcome === 'created' || p.outcome === 'updated'));
  }

  private create(
    items: Planned[],
    client: ServiceClient,
    scope: SenderLedger,
    events: SendEvents,
    prepared?: PendingCreate,
  ) {
    const { runId, onStep } = this.options;
    const idempotencyKey = prepared?.idempotencyKey ?? `${runId}-c${this.chunkSeq++}`;
    return createChunk(items, {
      client,
      scope,
      runId,
      idempotencyKey,
      ...(prepared ? { prepared } : {}),
      events,
      ...(onStep ? { onStep } : {}),
    });
  }

  private events(gone: Planned[]): SendEvents {
    const { scope, runId, tally } = this.options;
    return {
      settled: (outcome, items) => {
        scope?.putIdentities(
          items.map((p) => ({
            contactId: p.contactId!,
            identities: recordIdentities(p.record.key, p.record.contact, p.record.sources),
          })),
        );
        tally.settle(outcome, items);
      },
      failed: (planned, error) => {
        // A refused update changed nothing: the journal keeps nothing for an undo to take back.
        if (planned.contactId !== undefined) scope?.dropUpdate(runId, planned.contactId);
        tally.failRecord(
          planned.record,
          error.status === 413 ? 'record_too_large' : 'service_rejected',
          describe(error),
          planned.contactId,
        );
      },
      gone: (planned) => {
        scope?.dropUpdate(runId, planned.contactId!);
        gone.push(planned);
      },
    };
  }

  private async withReminders(items: Planned[]): Promise<void> {
    const { client, scope, dryRun } = this.options;
    const counts = await syncReminders(items, { client, scope, dryRun });
    this.reminders.created += counts.created;
    this.reminders.updated += counts.updated;
  }
}

const stoppedWaiting = (error: unknown): boolean =>
  isRequestError(error) && (error.code === 'aborted' || error.code === 'target_busy');

const describe = (error: RequestError): string => {
  // Details the message already says are not said again.
  const details = error.details
    .filter((d) => !error.message.includes(d.message))
    .map((d) => `${d.path}: ${d.message}`)
    .join('; ');
  return details ? `${error.message} (${details})` : error.message;
};

const isStateError = (error: unknown): boolean => isImportError(error) && error.code === 'state_error';
