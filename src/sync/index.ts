export { planSync, type SyncPlan } from './plan.js';
export { runSyncPhase, type SyncCounts, type SyncPhaseOptions, type SyncStep } from './phase.js';
export {
  archiveLimit,
  checkArchiveGuard,
  parseMaxArchive,
  thresholdText,
  type ArchiveThreshold,
} from './guard.js';
export { diffSent, type MemberDiff } from './diff.js';
export { sentValuesOf } from './sent-values.js';
