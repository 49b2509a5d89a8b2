import { isRequestError, type RequestError, type ServiceClient } from '../client/index.js';
import type { StepHook } from '../load/steps.js';
import type { Decision } from './decide.js';

/**
 * The place of an undo a caller can observe (`UndoOptions.onStep`); the crash tests stop an undo
 * there: `undo-sent`, the target applied a chunk and the ledger does not know yet.
 */
export type UndoStep = 'undo-sent';

/** Where the sender reports each decision the moment its request settled it. */
export interface ApplyEvents {
  /** The target applied the request (or, E1 not counting it, the contact is gone). */
  done(decisions: Decision[]): void;
  failed(decision: Decision, error: RequestError): void;
}

const isRecordProblem = (error: unknown): error is RequestError =>
  isRequestError(error) && (error.status === 400 || error.status === 413);

/**
 * Sends the decisions' E1 elements in chunks, `concurrency` at a time. Every element sets fields
 * to fixed values, so a chunk sent twice (an undo resumed after a crash) changes nothing more.
 * A 400 or 413 is split until the element it concerns is alone, which then fails; any other
 * failure (retries exhausted) stops the undo, and what was not sent stays to do.
 */
export const sendUndo = async (
  decisions: Decision[],
  ctx: {
    client: ServiceClient;
    chunkSize: number;
    concurrency: number;
    signal?: AbortSignal;
    events: ApplyEvents;
    /** Called after each E1 the target answered (the crash tests stop an undo there). */
    onStep?: StepHook<UndoStep>;
  },
): Promise<void> => {
  const chunks: Decision[][] = [];
  for (let i = 0; i < decisions.length; i += ctx.chunkSize)
    chunks.push(decisions.slice(i, i + ctx.chunkSize));
  let next = 0;
  let stop: unknown;
  const worker = async () => {
    while (next < chunks.length && stop === undefined && !ctx.signal?.aborted) {
      const chunk = chunks[next++]!;
      try {
        await sendSplitting(chunk, ctx);
      } catch (error) {
        stop ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, ctx.concurrency) }, worker));
  if (stop !== undefined) throw stop;
};

const sendSplitting = async (
  part: Decision[],
  ctx: { client: ServiceClient; events: ApplyEvents; onStep?: StepHook<UndoStep> },
): Promise<void> => {
  try {
    const answer = await ctx.client.bulkUpdateContacts(
      part.map((d) => ({ contactId: d.effect.contactId, data: d.data! })),
    );
    ctx.onStep?.('undo-sent');
    if (answer.count === part.length || part.length === 1) {
      if (answer.count === 0) part.forEach(markGone);
      ctx.events.done(part);
      return;
    }
    // E1 skips contacts that are gone: resend one by one to tell which (each E1 applied twice is once).
    for (const decision of part) await sendSplitting([decision], ctx);
  } catch (error) {
    if (!isRecordProblem(error)) throw error;
    if (part.length === 1) return ctx.events.failed(part[0]!, error);
    const middle = Math.ceil(part.length / 2);
    await sendSplitting(part.slice(0, middle), ctx);
    await sendSplitting(part.slice(middle), ctx);
  }
};

/** The contact is no longer on the target: there is nothing left to take back. */
const markGone = (decision: Decision): void => {
  decision.outcome = 'notUndone';
  decision.restored = [];
  decision.notes.unshift('the contact is no longer on the target');
};
