import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readDecisions } from '../../../src/candidates/decisions.js';
import { planMerges } from '../../../src/candidates/merge-plan.js';
import type { CandidatePair, PlacedPerson } from '../../../src/candidates/types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const HEADER =
  'band,score,a_file,a_row,b_file,b_row,b_contact_id,a_name,b_name,a_email,b_email,reasons,cluster,decision\n';

const fileWith = (text: string): string => {
  const dir = mkdtempSync(join(tmpdir(), 'merge-plan-'));
  dirs.push(dir);
  const path = join(dir, 'reviewed.csv');
  writeFileSync(path, text);
  return path;
};

const people: PlacedPerson[] = [1, 2, 3, 4].map((row) => ({ file: 'a.csv', row, person: {}, seq: row }));
const pair = (a: number, b: number, score: number): CandidatePair => ({
  a,
  b,
  score,
  band: score >= 0.99 ? 'likely' : 'possible',
  reasons: [],
});
const pairs = [pair(0, 1, 0.999), pair(1, 2, 0.995), pair(2, 3, 0.85)];

describe('reviewed candidates.csv', () => {
  it('reads merge and keep in any case, passes over undecided rows', () => {
    const path = fileWith(
      `${HEADER}likely,0.999,a.csv,1,a.csv,2,,,,,,,1, Merge \nlikely,0.995,a.csv,2,a.csv,3,,,,,,,1,\npossible,0.850,a.csv,3,a.csv,4,,,,,,,,KEEP\n`,
    );
    expect(readDecisions(path).map((d) => [d.row, d.decision, d.aRow, d.bRow])).toEqual([
      [1, 'merge', 1, 2],
      [3, 'keep', 3, 4],
    ]);
  });

  it.each([
    ['band,score\n', /row 0 \(header\): field a_file is missing/],
    [
      `${HEADER}likely,0.999,a.csv,1,a.csv,2,,,,,,,1,yes\n`,
      /row 1: field decision is "yes"; expected merge, keep or empty/,
    ],
    [
      `${HEADER}likely,0.999,a.csv,x,a.csv,2,,,,,,,1,merge\n`,
      /row 1: field a_row is "x"; expected a row number/,
    ],
  ])('refuses %j naming the row and field', (text, message) => {
    const path = fileWith(text);
    expect(() => readDecisions(path)).toThrow(message);
    expect(() => readDecisions(path)).toThrow(/reviewed\.csv/);
  });

  it('refuses a row that is not a pair of this run, naming it', () => {
    const path = fileWith(`${HEADER}likely,0.999,a.csv,1,a.csv,3,,,,,,,1,merge\n`);
    expect(() => planMerges({ file: path, decisions: readDecisions(path) }, pairs, people)).toThrow(
      /row 1: field b_row: a\.csv row 1 and a\.csv row 3 are not a pair this run found/,
    );
    const other = fileWith(`${HEADER}likely,0.999,b.csv,1,a.csv,3,,,,,,,1,keep\n`);
    expect(() => planMerges({ file: other, decisions: readDecisions(other) }, pairs, people)).toThrow(
      /row 1: field a_row: b\.csv row 1 is not a record this run read/,
    );
  });
});

describe('planMerges', () => {
  it('likely: chained pairs merge into the first-seen record of their group', () => {
    expect(planMerges({ band: 'likely' }, pairs, people)).toEqual([
      { into: 0, from: 1, score: 0.999 },
      { into: 0, from: 2, score: 0.995 },
    ]);
  });

  it('a reviewed file merges only its merge rows, whatever their band', () => {
    const path = fileWith(
      `${HEADER}likely,0.999,a.csv,1,a.csv,2,,,,,,,1,keep\npossible,0.850,a.csv,3,a.csv,4,,,,,,,,merge\n`,
    );
    expect(planMerges({ file: path, decisions: readDecisions(path) }, pairs, people)).toEqual([
      { into: 2, from: 3, score: 0.85 },
    ]);
  });
});
