import type { RunReport } from './run-report.js';

const n = (value: number): string => value.toLocaleString('en-US');

/** The E4 route: the start probe, the exact e-mail searches of resolution, a continuation's listing. */
export const SEARCH_ROUTE = 'GET /v1/search/contacts';

/**
 * Issue 15.5: when searches are most of a run's requests, the summary says so and why, since that
 * is what a rerun or a rate limit makes slow. Undefined when they are not (or the run sent little).
 */
export const searchShareLine = (requests: RunReport['requests']): string | undefined => {
  const searches = requests.byEndpoint[SEARCH_ROUTE]?.sent ?? 0;
  if (requests.sent < 20 || searches * 2 <= requests.sent) return undefined;
  return (
    `${n(searches)} of ${n(requests.sent)} requests were e-mail searches: ` +
    'the target held contacts this ledger did not know'
  );
};
