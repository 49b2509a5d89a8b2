// Preloaded into a child (NODE_OPTIONS=--require ...): prints the process's peak resident set
// size, worker threads included, to stderr as it exits, for tests where memory is the point.
// A CommonJS file because --require takes one; its require() is the only way it imports.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { writeSync } = require('node:fs');
process.on('exit', () => {
  writeSync(2, `\npeak-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
