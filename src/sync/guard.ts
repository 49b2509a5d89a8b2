import { ImportError } from '../core/errors/index.js';

/** `--max-archive N` or `N%`: how many of a sync scope's contacts one run may archive. */
export type ArchiveThreshold = { count: number } | { percent: number };

/** The default: 10% of the scope, and never fewer than this many contacts. */
export const DEFAULT_ARCHIVE_PERCENT = 10;
export const DEFAULT_ARCHIVE_FLOOR = 5;

export const parseMaxArchive = (text: string): ArchiveThreshold => {
  const match = /^(\d+(?:\.\d+)?)(%?)$/.exec(text.trim());
  if (!match || (match[2] === '' && !Number.isInteger(Number(match[1])))) {
    throw new ImportError(
      'config_invalid',
      `--max-archive must be a whole number or a percentage such as 10%, got "${text}"`,
      { field: 'maxArchive' },
    );
  }
  return match[2] === '%' ? { percent: Number(match[1]) } : { count: Number(match[1]) };
};

/** How many archives a run may make in a scope of `active` contacts. */
export const archiveLimit = (threshold: ArchiveThreshold | undefined, active: number): number => {
  if (threshold === undefined)
    return Math.max(DEFAULT_ARCHIVE_FLOOR, Math.floor((DEFAULT_ARCHIVE_PERCENT / 100) * active));
  return 'count' in threshold ? threshold.count : Math.floor((threshold.percent / 100) * active);
};

export const thresholdText = (threshold: ArchiveThreshold | undefined): string =>
  threshold === undefined
    ? `${DEFAULT_ARCHIVE_PERCENT}% (at least ${DEFAULT_ARCHIVE_FLOOR})`
    : 'count' in threshold
      ? String(threshold.count)
      : `${threshold.percent}%`;

/** Stops the run before anything is sent when it would archive more than allowed. */
export const checkArchiveGuard = (plan: {
  scope: string;
  archives: number;
  active: number;
  threshold: ArchiveThreshold | undefined;
}): void => {
  const limit = archiveLimit(plan.threshold, plan.active);
  if (plan.archives <= limit) return;
  throw new ImportError(
    'sync_guard',
    `sync scope "${plan.scope}": this run would archive ${plan.archives} of ${plan.active} contacts, more than --max-archive ${thresholdText(plan.threshold)} allows (${limit}); nothing was sent. Check the export, or raise --max-archive if they did leave.`,
    { field: 'maxArchive' },
  );
};
