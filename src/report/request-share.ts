import type { RunReport } from './run-report.js';
import { formatCount } from '../core/format-count.js';

const n = formatCount;

/** The E4 route: the start probe, the exact e-mail searches of resolution, a continuation's listing. */
export const SEARCH_ROUTE = 'GET /v1/search/contacts';

/**
 * When searches are most of a run's requests, the summary says so and why, since that
 * is what a rerun or a rate limit makes slow. Undefined when they are not (or the run sent little).
 */
export const searchShareLine = (report: Pick<RunReport, 'requests' | 'searched'>): string | undefined => {
  const { requests, searched } = report;
  const searches = requests.byEndpoint[SEARCH_ROUTE]?.sent ?? 0;
  if (requests.sent < 20 || searches * 2 <= requests.sent) return undefined;
  return `${n(searches)} of ${n(requests.sent)} requests were e-mail searches: ${searchReasons(searched)}`;
};

/** Why the run searched, as it counted it (the resolver's records searched, by cause). */
const searchReasons = (searched: RunReport['searched']): string => {
  if (!searched || searched.unknown + searched.changed === 0) {
    return 'the start probe, retries and the lookups of a continuation';
  }
  const reasons = [
    ...(searched.unknown > 0 ? [`${n(searched.unknown)} records this ledger did not know`] : []),
    ...(searched.changed > 0
      ? [
          `${n(searched.changed)} records it knew whose values changed (their current values, for the preview and undo)`,
        ]
      : []),
  ];
  return `for ${reasons.join(' and ')}`;
};
