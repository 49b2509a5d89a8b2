import type { Staging } from '../package/staging.js';
import type { SyncLedger } from '../state/index.js';
import { checkArchiveGuard, type ArchiveThreshold } from './guard.js';

/** What a sync run knows before it sends anything: its scope and who is gone from the inputs. */
export interface SyncPlan {
  scope: string;
  ledger: SyncLedger;
  /** Members not archived whose identity no input holds: archived unless the load finds them. */
  gone: { contactId: string; key: string }[];
  /** Members not archived: what a percentage of `--max-archive` is taken of. */
  active: number;
}

/**
 * Reads the staged identities once and the scope's members, and stops the run (the guard) when
 * more would be archived than `--max-archive` allows: before anything is sent.
 */
export const planSync = (
  scope: string,
  ledger: SyncLedger,
  staging: Staging,
  threshold: ArchiveThreshold | undefined,
): SyncPlan => {
  const staged = new Set(staging.keys());
  const gone: SyncPlan['gone'] = [];
  let active = 0;
  for (const member of ledger.memberKeys()) {
    if (member.archived) continue;
    active += 1;
    if (!staged.has(member.key)) gone.push({ contactId: member.contactId, key: member.key });
  }
  // The members are read in the table's order: the archives go (and are listed) in key order.
  gone.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  checkArchiveGuard({ scope, archives: gone.length, active, threshold });
  return { scope, ledger, gone, active };
};
