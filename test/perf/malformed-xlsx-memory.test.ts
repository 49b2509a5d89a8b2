import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MALFORMED, measure } from '../../bench/malformed-xlsx.js';
import { tempDir } from '../e2e/harness.js';

/**
 * Memory (npm run test:perf, not npm test): a malformed workbook of under 1 MB whose one XML part
 * never ends a text, a value, a comment or an element, or lists 100 million cell formats, stops
 * with exit 2 and one line, its peak RSS near a well-formed workbook's, not hundreds of MB (or a
 * heap out of memory). bench/malformed-xlsx.js prints the figures beside the sample's.
 */
describe('malformed workbooks', () => {
  for (const kind of Object.keys(MALFORMED) as (keyof typeof MALFORMED)[]) {
    it(`${kind}: exit 2 naming the damage, peak RSS under 250 MB`, { timeout: 300_000 }, () => {
      const dir = tempDir();
      const path = join(dir, `${kind}.xlsx`);
      // Under MAX_HELD_PART_BYTES for the styles part, so it is opened and read.
      writeFileSync(path, MALFORMED[kind](kind === 'styles' ? 500 : 600));
      const result = measure(path, dir);
      expect(result.code, result.line).toBe(2);
      expect(result.line).toMatch(/input_unreadable: .*cannot be read/);
      expect(result.peakMb).toBeLessThan(250);
    });
  }
});
