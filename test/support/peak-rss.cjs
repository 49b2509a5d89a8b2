// Preloaded into a child (NODE_OPTIONS=--require ...): prints the process's peak resident set
// size, worker threads included, to stderr as it exits, for tests where memory is the point.
// A CommonJS file because --require takes one; its require() is the only way it imports.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { readFileSync, writeSync } = require('node:fs');

/**
 * The peak of this program's own memory: Linux's VmHWM. getrusage's maxRSS also counts the
 * parent's pages the child held between fork and exec, so a child of a large test worker would
 * report the worker's size; maxRSS only where /proc is missing.
 */
const peakKb = () => {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // no /proc: not Linux
  }
  return process.resourceUsage().maxRSS;
};

process.on('exit', () => {
  writeSync(2, `\npeak-rss-kb ${peakKb()}\n`);
});
