import type { ServiceClient } from '../client/index.js';
import type { ContactResponse, ContactWrite } from '../core/schemas/index.js';
import { findContact } from '../sync/find-contact.js';
import type { Issue } from '../core/types.js';
import type { ChangeRow } from '../load/types.js';
import type { Ledger, SentBefore, StoredSyncEffect } from '../state/index.js';

/** report.json `sync` of an undo: what it took back of a sync run. */
export interface SyncUndoCounts {
  /** Contacts the run archived, unarchived again. */
  unarchived: number;
  /** Contacts the run brought back, archived again. */
  archived: number;
  valuesRestored: number;
  fieldsRestored: number;
  /** Changed on the service since the run: kept as they are. */
  conflicts: number;
}

interface ContactUndo {
  contactId: string;
  effects: StoredSyncEffect[];
  data: ContactWrite;
  rows: ChangeRow[];
  issues: Issue[];
}

/**
 * Takes back what a sync run did (the ledger's `sync_effects`): archives are unarchived and
 * unarchives archived again when the contact is still as the run left it, removed e-mails and
 * phones are added back, cleared fields restored unless set since (a conflict, kept). Effects an
 * earlier undo settled are not sent again. With each contact taken back, the scope's `sent` for it
 * goes back to what it was before the run (the journal's `sent` rows), so the next sync run
 * compares with what the target holds again. A dry run only counts and lists.
 */
export const undoSyncEffects = async (ctx: {
  ledger: Ledger;
  scopeId: string;
  runId: string;
  undoRunId: string;
  client: ServiceClient | undefined;
  dryRun: boolean;
  chunkSize: number;
  signal?: AbortSignal;
}): Promise<{ counts: SyncUndoCounts; rows: ChangeRow[]; issues: Issue[] } | undefined> => {
  const effects = ctx.ledger.syncEffects(ctx.runId);
  if (effects.length === 0) return undefined;
  const sentBefore = ctx.dryRun ? [] : ctx.ledger.syncSentBefore(ctx.runId);
  const counts: SyncUndoCounts = {
    unarchived: 0,
    archived: 0,
    valuesRestored: 0,
    fieldsRestored: 0,
    conflicts: 0,
  };
  const byContact = new Map<string, StoredSyncEffect[]>();
  for (const e of effects.filter((e) => e.undo === undefined)) {
    byContact.set(e.contactId, [...(byContact.get(e.contactId) ?? []), e]);
  }
  const undos: ContactUndo[] = [];
  for (const [contactId, list] of byContact) {
    const sync = list[0]!.sync;
    const member = ctx.ledger.syncScope(ctx.scopeId, sync).lookUp([contactId]).mine.get(contactId);
    const now = ctx.client ? await findContact(ctx.client, contactId, member?.sent) : undefined;
    undos.push(decide(contactId, list, now, counts));
  }
  const rows = undos.flatMap((u) => u.rows);
  const issues = undos.flatMap((u) => u.issues);
  if (ctx.dryRun || !ctx.client) return { counts, rows, issues };
  const sending = undos.filter((u) => Object.keys(u.data).length > 0);
  for (let at = 0; at < sending.length; at += ctx.chunkSize) {
    if (ctx.signal?.aborted) break;
    const chunk = sending.slice(at, at + ctx.chunkSize);
    await ctx.client.bulkUpdateContacts(chunk.map((u) => ({ contactId: u.contactId, data: u.data })));
    settle(ctx, chunk, sentBefore);
  }
  if (!ctx.signal?.aborted) {
    settle(
      ctx,
      undos.filter((u) => Object.keys(u.data).length === 0),
      sentBefore,
    );
    // The members the run only changed the base of (a value added, no effect to take back).
    ctx.ledger.restoreSyncSent(
      ctx.scopeId,
      sentBefore.filter((e) => !byContact.has(e.contactId)),
      {
        undoRunId: ctx.undoRunId,
      },
    );
  }
  return { counts, rows, issues };
};

/** Recorded once the target applied them: the members' archived flags, the effects settled. */
const settle = (
  ctx: { ledger: Ledger; scopeId: string; undoRunId: string },
  done: readonly ContactUndo[],
  sentBefore: readonly SentBefore[],
) => {
  for (const u of done) {
    const sync = u.effects[0]!.sync;
    if (u.data.is_archived !== undefined)
      ctx.ledger.syncScope(ctx.scopeId, sync).setArchived([u.contactId], u.data.is_archived);
  }
  ctx.ledger.settleSyncEffects(
    done.flatMap((u) => u.effects.map((e) => ({ seq: e.seq, mark: { undoRunId: ctx.undoRunId } }))),
  );
  const ids = new Set(done.map((u) => u.contactId));
  ctx.ledger.restoreSyncSent(
    ctx.scopeId,
    sentBefore.filter((e) => ids.has(e.contactId)),
    { undoRunId: ctx.undoRunId },
  );
};

const decide = (
  contactId: string,
  effects: StoredSyncEffect[],
  now: ContactResponse | undefined,
  counts: SyncUndoCounts,
): ContactUndo => {
  const undo: ContactUndo = { contactId, effects, data: {}, rows: [], issues: [] };
  const row = (field: string, old: string, value: string) =>
    undo.rows.push({ file: '', row: 0, contactId, field, old, new: value });
  const conflict = (field: string, value: string, message: string) => {
    counts.conflicts += 1;
    undo.issues.push({
      file: '',
      row: 0,
      line: 0,
      severity: 'error',
      stage: 'undo',
      field,
      value,
      code: 'undo_conflict',
      message: `contact ${contactId}: ${message}; kept, not restored`,
    });
  };
  for (const e of effects) {
    if (e.kind === 'archived' || e.kind === 'unarchived') {
      const archive = e.kind === 'unarchived';
      if (now !== undefined && now.is_archived === archive) {
        conflict(
          'is_archived',
          String(now.is_archived),
          `is_archived is ${now.is_archived} on the service already`,
        );
        continue;
      }
      undo.data.is_archived = archive;
      counts[archive ? 'archived' : 'unarchived'] += 1;
      row('is_archived', String(!archive), String(archive));
    } else if (e.kind === 'removed') {
      if (e.field === 'contact_emails') {
        undo.data.contact_emails = [...(undo.data.contact_emails ?? []), { email: e.value }];
      } else {
        undo.data.contact_phone_numbers = [
          ...(undo.data.contact_phone_numbers ?? []),
          { phone_number: e.value },
        ];
      }
      counts.valuesRestored += 1;
      row(e.field, '', e.value);
    } else {
      const current = (now as Record<string, unknown> | undefined)?.[e.field];
      if (current !== null && current !== undefined) {
        conflict(
          e.field,
          String(current),
          `${e.field} is "${String(current)}" on the service, set since the run cleared it`,
        );
        continue;
      }
      (undo.data as Record<string, unknown>)[e.field] = e.value;
      counts.fieldsRestored += 1;
      row(e.field, '', e.value);
    }
  }
  return undo;
};
