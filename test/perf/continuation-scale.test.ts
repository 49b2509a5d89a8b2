// The continuation after kill -9 at 40 % at the scale: 20,000 rows, the same assertions as
// test/e2e/run-continuation.test.ts (which runs 2,000 in `npm test`).
process.env.CONTINUATION_ROWS = '20000';
await import('../e2e/run-continuation.test.js');
