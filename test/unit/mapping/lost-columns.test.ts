import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../../src/mapping/index.js';
import { lostColumns } from '../../../src/mapping/lost-columns.js';

const samples = (rows: Record<string, string>[]): Map<string, string[]> => {
  const values = new Map<string, string[]>();
  for (const row of rows)
    for (const [column, value] of Object.entries(row))
      values.set(column, [...(values.get(column) ?? []), value]);
  return values;
};

describe('lostColumns: name, e-mail and phone columns a pipeline reads nothing from', () => {
  it('a French header read as a plain list loses its first names', async () => {
    const header = ['Nom', 'Prénom', 'Courriel', 'Portable'];
    const rows = [{ Nom: 'Dupont', Prénom: 'Jean', Courriel: 'jean@example.fr', Portable: '06 12 34 56 78' }];
    expect(lostColumns(await loadPipeline('plain-list'), header, samples(rows))).toEqual([
      { column: 'Prénom', kind: 'name' },
    ]);
  });

  it('a column told by its values, not its header; empty columns and owners lose nobody', async () => {
    const header = ['Name', 'Email', 'Contact 2', 'Fax 2', 'Contact owner'];
    const rows = [
      {
        Name: 'Ann Lee',
        Email: 'ann@example.com',
        'Contact 2': 'ann.lee@example.org',
        'Fax 2': '',
        'Contact owner': 'Dana',
      },
      {
        Name: 'Bo Li',
        Email: 'bo@example.com',
        'Contact 2': 'bo.li@example.org',
        'Fax 2': '',
        'Contact owner': 'Sam',
      },
    ];
    expect(lostColumns(await loadPipeline('plain-list'), header, samples(rows))).toEqual([
      { column: 'Contact 2', kind: 'e-mail' },
    ]);
  });
});
