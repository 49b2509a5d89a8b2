/** The local service in its own process, so the loader and the service are measured apart. */
import { args, dist } from './common.js';

const { startLocalService } = await import(dist('server/index.js'));
const { db, apiKey, rateLimit, failRate, latencyMs, seed = 7, port = 0 } = args();
const service = await startLocalService({
  port,
  db,
  apiKeys: [apiKey],
  ...(rateLimit ? { rateLimit } : {}),
  ...(failRate ? { failRate } : {}),
  ...(latencyMs ? { latencyMs } : {}),
  seed,
});
process.stdout.write(`${JSON.stringify({ url: service.url })}\n`);
process.on('SIGTERM', () => void service.close().then(() => process.exit(0)));
