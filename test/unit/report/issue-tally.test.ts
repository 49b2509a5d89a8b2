import { describe, expect, it } from 'vitest';
import type { Issue } from '../../../src/core/types.js';
import { EXAMPLES_PER_KEY, IssueTally, MAX_FIELDS, OTHER_FIELDS } from '../../../src/report/issue-tally.js';

const issue = (
  row: number,
  code: Issue['code'],
  field: string,
  severity: Issue['severity'] = 'warning',
): Issue => ({
  file: 'a.csv',
  row,
  line: row + 1,
  severity,
  stage: 'normalize',
  field,
  value: `v${row}`,
  code,
  message: 'm',
});

describe('IssueTally', () => {
  it('counts by code and severity and by column, keeping the first examples of each', () => {
    const tally = new IssueTally();
    for (let row = 1; row <= 10; row += 1) tally.add(issue(row, 'invalid_email', 'Email'));
    tally.add(issue(11, 'invalid_phone', 'Phone'));
    tally.add(issue(12, 'no_identity', '', 'error'));
    tally.add(issue(13, 'invalid_phone', 'Email'));
    expect(tally.byCode().map((c) => [c.code, c.severity, c.count])).toEqual([
      ['invalid_email', 'warning', 10],
      ['invalid_phone', 'warning', 2],
      ['no_identity', 'error', 1],
    ]);
    const email = tally.byCode()[0]!;
    expect(email.examples!.map((e) => e.row)).toEqual([1, 2, 3]);
    expect(email.example.row).toBe(1);
    expect(tally.byField().map((f) => [f.field, f.count])).toEqual([
      ['Email', 11],
      ['Phone', 1],
      ['', 1],
    ]);
    expect(tally.byField()[0]!.examples).toHaveLength(EXAMPLES_PER_KEY);
  });

  it('does not grow with new column names past its bound', () => {
    const tally = new IssueTally();
    for (let i = 0; i < MAX_FIELDS + 500; i += 1) tally.add(issue(i, 'invalid_value', `key_${i}`));
    const fields = tally.byField();
    expect(fields).toHaveLength(MAX_FIELDS + 1);
    expect(fields.find((f) => f.field === OTHER_FIELDS)?.count).toBe(500);
    expect(fields.reduce((n, f) => n + f.count, 0)).toBe(MAX_FIELDS + 500);
  });
});
