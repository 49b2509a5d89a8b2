import { describe, expect, it } from 'vitest';
import type { Issue } from '../../../src/core/types.js';
import type { InputInfo, SourceRow } from '../../../src/readers/types.js';
import { PhoneDrops } from '../../../src/extract/phone-drops.js';
import { droppedWholeCount } from '../../../src/report/dropped-columns.js';

const header = ['Name', 'Phone', 'Mobile'];
const row = (cells: string[]): SourceRow => ({
  kind: 'row',
  file: 'a.csv',
  row: 1,
  line: 2,
  cells,
  values: Object.fromEntries(header.map((column, i) => [column, cells[i]])),
  raw: cells.join(','),
});
const dropped = (field: string): Issue => ({
  file: 'a.csv',
  row: 1,
  line: 2,
  severity: 'warning',
  stage: 'normalize',
  field,
  value: 'x',
  code: 'invalid_phone',
  message: 'x',
});
const info = (): InputInfo => ({ path: 'a.csv', format: 'csv', encoding: 'utf-8', delimiter: ',', rows: 0 });

describe('PhoneDrops: a phone column dropped whole counts against --max-rejects', () => {
  it('a column whose every value is dropped is counted; one that mostly passes is not', () => {
    const drops = new PhoneDrops(header);
    for (let i = 0; i < 12; i++) {
      const mobileFails = i < 2;
      drops.note(row(['Ann', '0612', '+1 415 555 2671']), [
        dropped('Phone'),
        ...(mobileFails ? [dropped('Mobile')] : []),
      ]);
    }
    drops.note(row(['Bo', '', '+1 415 555 2671']), []);
    const input = info();
    drops.finish(input);
    expect(input.droppedColumns).toEqual([{ column: 'Phone', dropped: 12, values: 12 }]);
    expect(droppedWholeCount([input, info()])).toBe(12);
  });

  it('a few bad numbers are typos: warned about, not counted', () => {
    const drops = new PhoneDrops(header);
    for (let i = 0; i < 3; i++) drops.note(row(['Ann', '0612', '']), [dropped('Phone')]);
    const input = info();
    drops.finish(input);
    expect(input.droppedColumns).toBeUndefined();
  });
});
