import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ImportError } from '../../core/errors/index.js';
import { codeForScript } from './script-embedding.js';

/**
 * Chart.js's UMD build (it defines `window.Chart`), read from the installed package and inlined
 * into report.html so the page needs no network. The package exports no path to that file, so
 * it is found beside the package's main entry.
 */
let cached: string | undefined;

export const chartLibrary = (): string => {
  if (cached !== undefined) return cached;
  let path = '';
  try {
    const main = createRequire(import.meta.url).resolve('chart.js');
    path = join(dirname(main), 'chart.umd.min.js');
    cached = codeForScript(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ImportError(
      'output_error',
      `cannot read the chart library for report.html (${path || 'chart.js'}): ${(error as Error).message}; ` +
        'expected the chart.js package installed with this tool (npm ci)',
      { file: path },
    );
  }
  return cached;
};
