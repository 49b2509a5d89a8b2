/**
 * The ledger: what was loaded where, per target and user, so reruns are idempotent and crashed runs
 * resume without duplicates. See docs/design.md "Records, identity and reruns".
 *
 * How the loader uses it, per scope (scopeId(target, apiKey); the in-process local service is
 * target "local", since its port changes from run to run):
 * 1. Resume first: resend every pendingCreates() chunk byte for byte with its Idempotency-Key, then
 *    completeCreate(key, ids) (or abandonCreate(key) on a 400), before resolving any record.
 * 2. Resolve: getContacts(keys) for the run's identity keys; an equal contentHash is `unchanged`.
 * 3. Create: beginCreate(chunk) BEFORE sending, completeCreate(key, ids) after the answer.
 *    Update: send, then putContacts(entries) with the new hashes.
 */
export { openLedger, LEDGER_FILE } from './open-ledger.js';
export { acquireRunLock, RUN_LOCK_FILE, RUN_HOLDER_FILE, type RunLock } from './run-lock.js';
export { openRunWork, RUN_WORK_FOLDER, type RunWork } from './run-work.js';
export { enterTargetGate, gateDir, type GateOutcome, type TargetGate } from './target-gate.js';
export { describeHolder, type LockHolder } from './os-lock.js';
export { scopeId, normalizeTarget, LOCAL_TARGET } from './scope-id.js';
export { contentHash, canonicalJson, textHash } from './content-hash.js';
export type {
  AdoptedResolutions,
  ContactEntry,
  Continuation,
  Continuations,
  CreateJournal,
  InputFingerprint,
  KeyHonouring,
  KnownImages,
  Ledger,
  LedgerEntry,
  LedgerScope,
  LoadRun,
  OpenLedgerOptions,
  PendingCreate,
  KnownReferences,
  KnownReminders,
  Resolution,
  RunSnapshot,
  RunStart,
  RunJournal,
  RunSummary,
  ScopeContacts,
  ScopeIdentities,
  ScopeResolutions,
  EffectKind,
  RunEffect,
  StoredRun,
  StoredRunRow,
  UndoMark,
  UndoOutcome,
  UpdateEffect,
} from './types.js';
export type { SentBefore } from './sync-journal.js';
export {
  SyncLedger,
  type PendingArchive,
  type ResolvedKey,
  type SentChange,
  type SentValues,
  type StoredSyncEffect,
  type SyncEffect,
  type SyncEffectKind,
  type SyncMember,
} from './sync-ledger.js';
