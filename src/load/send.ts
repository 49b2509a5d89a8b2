import type { ServiceClient } from '../client/index.js';
import { answerLost, isRequestError, type RequestError } from '../client/errors.js';
import { ImportError, isImportError } from '../core/errors/index.js';
import type {
  CreateJournal,
  KeyHonouring,
  KnownImages,
  PendingCreate,
  ScopeContacts,
} from '../state/index.js';
import { assertAnsweredAsSent } from './answer-check.js';
import { createBody } from './chunks.js';
import { keysHonoured } from './key-replay.js';
import { keepImages } from './known-image.js';
import { searchFinder, settleLostCreate, underItsKey } from './lost-creates.js';
import type { Planned } from './resolve.js';
import type { StepHook } from './steps.js';

/** Called the moment records reach an outcome, so nothing is lost if a later request fails. */
export interface SendEvents {
  settled(outcome: 'created' | 'updated', items: Planned[]): void;
  failed(planned: Planned, error: RequestError): void;
  /** E2 answered 404: the contact is gone from the target. */
  gone(planned: Planned): void;
}

/**
 * A 400 concerns the records sent, and so does a 413 (the body, or the number of records, is more
 * than the target takes): both are split. Any other failure is the run's problem and propagates.
 */
const isRecordProblem = (error: unknown): error is RequestError =>
  isRequestError(error) && (error.status === 400 || error.status === 413);

/**
 * docs/design.md: a 400 on a bulk request is split in halves until the bad records are isolated; the
 * good ones load, the bad ones fail with the service's message.
 */
const splitOn400 = async (
  items: Planned[],
  send: (part: Planned[], path: string) => Promise<void>,
  onFailed: SendEvents['failed'],
  path = '',
): Promise<void> => {
  try {
    await send(items, path);
  } catch (error) {
    if (!isRecordProblem(error)) throw error;
    if (items.length === 1) {
      items[0]!.outcome = 'failed';
      onFailed(items[0]!, error);
      return;
    }
    const middle = Math.ceil(items.length / 2);
    await splitOn400(items.slice(0, middle), send, onFailed, `${path}.0`);
    await splitOn400(items.slice(middle), send, onFailed, `${path}.1`);
  }
};

/** What the ledger records of a create before it is sent: its key, its records, its body. */
export const pendingCreate = (
  items: readonly Planned[],
  runId: string,
  idempotencyKey: string,
): PendingCreate => ({
  runId,
  idempotencyKey,
  keys: items.map((p) => p.record.key),
  hashes: items.map((p) => p.hash),
  body: createBody(items),
});

/**
 * Creates one chunk with `POST /v1/contacts/`. The chunk is recorded in the ledger with its
 * Idempotency-Key as its request is handed to the network, and completed with the answered ids in
 * one transaction, so a crash at any instant is resumed by sending the same key again (or looking
 * its records up, on a target not known to honour keys).
 */
export const createChunk = async (
  items: Planned[],
  ctx: {
    client: ServiceClient;
    scope: CreateJournal & ScopeContacts & KeyHonouring & KnownImages;
    /** The run sending it: the create is journaled under it (an undo archives what it created). */
    runId: string;
    idempotencyKey: string;
    /** The whole chunk's create, its key and body made with its batch's (ChunkSender.prepare). */
    prepared?: PendingCreate;
    events: SendEvents;
    onStep?: StepHook;
  },
): Promise<void> => {
  await splitOn400(
    items,
    async (part, path) => {
      const idempotencyKey = `${ctx.idempotencyKey}${path}`;
      // The records' texts joined once: the ledger keeps these bytes, the request sends them, a
      // resume resends them. The texts stay for a split on 400 (no record is serialized again).
      const texts = part.map((p) => p.json);
      const prepared = path === '' ? ctx.prepared : undefined;
      const pending = prepared ?? pendingCreate(part, ctx.runId, idempotencyKey);
      const bodyJson = pending.body;
      // Journaled as the request is handed to the network, not when it is queued for a place: a
      // crash leaves pending only the creates that may have reached the target.
      const onSent = () => {
        ctx.scope.beginCreate(pending);
        ctx.onStep?.('create-recorded');
      };
      const onReplayed = () => ctx.scope.recordKeysHonoured(true);
      let ids: string[];
      let answered = true;
      try {
        const contacts = await ctx.client.createContactsLossFinal(texts, {
          idempotencyKey,
          bodyJson,
          onSent,
          onReplayed,
        });
        ctx.onStep?.('create-answered');
        // Before any id is recorded: ids matched to the wrong people would merge them later.
        assertAnsweredAsSent(
          part.map((p) => p.write),
          contacts,
          idempotencyKey,
        );
        ids = contacts.map((c) => c.id);
      } catch (error) {
        // A refused create created nothing: forget the pending row so no rerun resends it.
        if (isRecordProblem(error)) ctx.scope.abandonCreate(idempotencyKey);
        if (!(isRequestError(error) && answerLost(error))) throw error;
        // The body left and no answer came: look the records up before anything is resent.
        ids = await settleLostCreate(pending, {
          client: ctx.client,
          scope: ctx.scope,
          // A target that honours keys answers a resend with what it created: nothing to look up.
          finder: (await keysHonoured(ctx.client, ctx.scope)) ? underItsKey : searchFinder(ctx.client),
        });
        answered = false;
      }
      // The lost create's lookup recorded what it found itself.
      if (answered) recordAnswer(ctx.scope, idempotencyKey, ids, part, ctx.events);
      ctx.onStep?.('create-done');
      keepImages(ctx.scope, part, true);
      settleCreated(part, ids, ctx.events);
    },
    ctx.events.failed,
  );
};

const settleCreated = (part: Planned[], ids: readonly string[], events: SendEvents): void => {
  part.forEach((p, i) => {
    p.contactId = ids[i]!;
    p.outcome = 'created';
  });
  events.settled('created', part);
};

/**
 * The answered ids into the ledger. A ledger that cannot be written (a full disk) does not make
 * contacts the target created "not loaded": they are counted created, and the run stops saying so.
 * Their create stays pending in the ledger, so the next run sends it again under the same
 * Idempotency-Key and the target answers with the same contacts instead of creating them twice.
 */
const recordAnswer = (
  scope: CreateJournal,
  idempotencyKey: string,
  ids: string[],
  part: Planned[],
  events: SendEvents,
): void => {
  try {
    scope.completeCreate(idempotencyKey, ids);
  } catch (error) {
    if (!(isImportError(error) && error.code === 'state_error')) throw error;
    settleCreated(part, ids, events);
    throw new ImportError(
      'state_error',
      `the target created ${part.length} contacts that the ledger could not record (${error.message.replace(/\.$/, '')}); ` +
        'they are counted as created, and the next run with this --state sends their create again under the same ' +
        'Idempotency-Key, which the target answers with the same contacts instead of creating them twice',
      error.context,
      { cause: error },
    );
  }
};

/**
 * Updates one chunk with E1. `count` is checked: a shortfall is bisected: the halves
 * are sent again with E1 (a partial update applied twice changes nothing under the merge rules)
 * until the contacts that are gone are isolated, about 2 x log2(chunk) requests per missing
 * contact instead of one E2 per element; a lone element that E1 does not count is gone from the
 * target (the caller re-creates it, the ledger forgets it).
 */
export const updateChunk = async (
  items: Planned[],
  ctx: { client: ServiceClient; scope: ScopeContacts & KnownImages; events: SendEvents },
): Promise<void> => {
  // Settled before the ledger write: the target applied them, whether or not the ledger can say so.
  const done = (planned: Planned[]) => {
    planned.forEach((p) => (p.outcome = 'updated'));
    ctx.events.settled('updated', planned);
    ctx.scope.putContacts(planned.map((p) => ({ key: p.record.key, contactId: p.contactId!, hash: p.hash })));
    keepImages(ctx.scope, planned, false);
  };
  const gone = (planned: Planned[]) => {
    for (const p of planned) {
      ctx.scope.forgetContact(p.record.key);
      p.outcome = 'gone';
      ctx.events.gone(p);
    }
  };
  const send = (part: Planned[]) =>
    ctx.client.bulkUpdateContacts(part.map((p) => ({ contactId: p.contactId!, data: p.json })));
  /** `count` is what E1 answered for `part`: updates every element still there, none twice. */
  const bisect = async (part: Planned[], count: number): Promise<void> => {
    if (count === part.length) return done(part);
    // E1 skips unknown ids: nothing counted means every element is gone.
    if (count === 0) return gone(part);
    const middle = Math.ceil(part.length / 2);
    for (const half of [part.slice(0, middle), part.slice(middle)]) {
      await splitOn400(half, async (piece) => bisect(piece, (await send(piece)).count), ctx.events.failed);
    }
  };
  await splitOn400(items, async (part) => bisect(part, (await send(part)).count), ctx.events.failed);
};
