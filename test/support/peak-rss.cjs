// Preloaded into a child (NODE_OPTIONS=--require ...): prints the process's peak resident set
// size, worker threads included, to stderr as it exits, for tests where memory is the point.
process.on('exit', () => {
  require('node:fs').writeSync(2, `\npeak-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
