/**
 * What the benches that compare two builds in one process share: their command line (a file, the
 * `--before` build, `--after`, `--pipeline`, `--repeat`), and passes over every measure alternated
 * (every other pass in the other order: the garbage one side leaves is not always the other's), each
 * timed in this process's CPU (user + system), which a busy neighbour disturbs less than the clock.
 */
import { parseArgs } from 'node:util';

/** The file and the flags, or the usage line and exit 2. */
export const sideBySideArgs = (script, defaultPipeline) => {
  const { values: flags, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      before: { type: 'string' },
      after: { type: 'string', default: 'dist' },
      pipeline: { type: 'string', default: defaultPipeline },
      repeat: { type: 'string', default: '7' },
    },
  });
  const path = positionals[0];
  if (!path || !flags.before) {
    console.error(
      `usage: node bench/${script} <file.csv> --before <dist> [--after dist] [--pipeline ${defaultPipeline}] [--repeat 7]`,
    );
    process.exit(2);
  }
  return { path, flags };
};

/**
 * Runs every measure once a pass, `repeat` passes, the order reversed every other pass; per measure,
 * the CPU milliseconds of each pass, and what its last call gave back.
 */
export const alternatePasses = async (measures, repeat) => {
  const taken = Object.fromEntries(Object.keys(measures).map((name) => [name, []]));
  const results = {};
  for (let pass = 0; pass < repeat; pass++) {
    const order = Object.entries(measures);
    if (pass % 2 === 1) order.reverse();
    for (const [name, measure] of order) {
      const started = process.cpuUsage();
      results[name] = await measure();
      const used = process.cpuUsage(started);
      taken[name].push((used.user + used.system) / 1000);
    }
  }
  return { taken, results };
};
