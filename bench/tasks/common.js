/** Shared by the bench tasks: each runs in its own process so its peak RSS is its own. */
import { pathToFileURL } from 'node:url';

/**
 * The compiled tool: the orchestrator's snapshot of dist/ (BENCH_DIST), so a rebuild by someone
 * else during a long run cannot change the code under measurement; else dist/ itself.
 */
export const dist = (path) =>
  process.env.BENCH_DIST
    ? pathToFileURL(`${process.env.BENCH_DIST}/${path}`).href
    : new URL(`../../dist/${path}`, import.meta.url).href;

/** Peak resident set size of this process so far, in MB. */
export const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** The one line a task prints: the orchestrator reads it as JSON. */
export const report = (result) => {
  process.stdout.write(`${JSON.stringify({ ...result, peakRssMb: peakRssMb() })}\n`);
};

export const args = () => JSON.parse(process.argv[2] ?? '{}');
