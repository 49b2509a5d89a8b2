import { describe, expect, it } from 'vitest';
import { createRowMapper, parsePipeline } from '../../../src/mapping/index.js';
import type { SourceRow } from '../../../src/readers/types.js';

const pipeline = parsePipeline(
  'fields:\n  legacy_contact_addresses: ["Address {n} - Formatted", Address]\n  website: Web\n',
  'list.yaml',
);
const row = (values: Record<string, unknown>, file = 'in.json'): SourceRow => ({
  kind: 'row',
  file,
  row: 1,
  line: 2,
  raw: '',
  values,
});

describe('list fields', () => {
  it('a {n} family in fields keeps every present member, then the other alternatives, first column named', () => {
    const mapper = createRowMapper(pipeline, undefined, 'in.json');
    const draft = mapper.map(
      row({
        'Address 2 - Formatted': 'Two',
        'Address 1 - Formatted': 'One',
        'Address 3 - Formatted': ' ',
        Address: 'Plain',
        Web: 'x.org',
      }),
    );
    expect(draft.fields.legacy_contact_addresses).toEqual({
      value: ['One', 'Two', 'Plain'],
      field: 'Address 1 - Formatted',
    });
    expect(draft.fields.website).toEqual({ value: 'x.org', field: 'Web' });
  });

  it('matches a family against a CSV header, and leaves the field out when the header has none of it', () => {
    const header = ['Address 1 - Formatted', 'Web'];
    const draft = createRowMapper(pipeline, header, 'in.csv').map(
      row({ 'Address 1 - Formatted': '1 Main St', Web: '' }, 'in.csv'),
    );
    expect(draft.fields).toEqual({
      legacy_contact_addresses: { value: ['1 Main St'], field: 'Address 1 - Formatted' },
    });
    expect(createRowMapper(pipeline, ['Web'], 'in.csv').map(row({ Web: 'x.org' }, 'in.csv')).fields).toEqual({
      website: { value: 'x.org', field: 'Web' },
    });
  });
});
