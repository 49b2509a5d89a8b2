import { describe, expect, it } from 'vitest';
import { parsePipeline } from '../../../../src/mapping/parse-pipeline.js';
import { draftPipeline, draftName } from '../../../../src/mapping/draft/draft.js';
import { emitDraft } from '../../../../src/mapping/draft/emit.js';
import type { InputSample } from '../../../../src/mapping/draft/sample.js';

const sample = (rows: Record<string, string>[]): InputSample => {
  const columns = Object.keys(rows[0]!);
  return {
    info: { path: 'x.csv', format: 'csv', encoding: 'windows-1252', delimiter: ';', rows: rows.length },
    columns,
    values: new Map(columns.map((c) => [c, rows.map((r) => r[c]!)])),
    skipLines: 0,
  };
};

describe('draftPipeline + emitDraft', () => {
  const input = sample([
    {
      Nom: 'Dupont',
      Courriel: 'jean@example.fr',
      Portable: '06 12 34 56 78',
      Col4: 'a@x.io',
      Né: '25/12/1980',
      Couleur: 'bleu',
      Birthday: '0/0/00',
    },
    {
      Nom: 'Martin',
      Courriel: 'luc@example.fr',
      Portable: '0612345679',
      Col4: 'b@x.io',
      Né: '03/04/1975',
      Couleur: 'vert',
      Birthday: '',
    },
  ]);
  const result = draftPipeline('dir/Mes Contacts (2).csv', input);

  it('maps by header and by values, with the dialect read', () => {
    expect(result.pipeline.name).toBe('mes-contacts-2');
    expect(result.pipeline.source).toEqual({
      format: 'csv',
      delimiter: ';',
      encoding: 'windows-1252',
      empty_values: ['0/0/00'],
    });
    expect(result.pipeline.name_parts).toEqual({ last: 'Nom' });
    expect(result.pipeline.emails.map((e) => e.column)).toEqual(['Courriel', 'Col4']);
    expect(result.pipeline.phones).toEqual([{ column: 'Portable', label: 'Portable' }]);
    // The header-named Birthday column wins over the date-like `Né`, which is left for the user.
    expect(result.pipeline.fields).toEqual({ birthday: 'Birthday' });
    expect(result.unmapped.map((u) => u.column)).toEqual(['Né', 'Couleur']);
  });

  it('emits YAML the pipeline schema accepts, with the reasons and unmapped columns as comments', () => {
    const text = emitDraft(result);
    expect(text.startsWith('# DRAFT pipeline')).toBe(true);
    expect(text).toContain('- column: Col4 # values look like emails');
    expect(text).toContain('#   "Couleur": no hint in the header or values');
    const pipeline = parsePipeline(text, 'draft.yaml');
    expect(pipeline.dialect).toEqual({ format: 'csv', delimiter: ';', encoding: 'windows-1252' });
    expect(pipeline.spec.emails.map((e) => e.column)).toEqual(['Courriel', 'Col4']);
  });

  it('proposes a region for national numbers: from the e-mail country domains (.io is no country)', () => {
    expect(result.region).toEqual({ national: 2, region: 'FR', reason: expect.stringContaining('e-mail') });
    const text = emitDraft(result);
    expect(text).toContain('2 sampled numbers without +country: region FR is proposed below');
    expect(text).toMatch(/^region: FR # guessed: the country domain of most e-mail addresses/m);
    expect(parsePipeline(text, 'draft.yaml').region).toBe('FR');
  });

  it('prefers the country of the numbers that carry one; proposes none without a sign', () => {
    const mixed = draftPipeline(
      'x.csv',
      sample([
        { Name: 'A', Email: 'a@example.com', Phone: '030 1234567' },
        { Name: 'B', Email: 'b@example.fr', Phone: '+49 89 1234567' },
        { Name: 'C', Email: 'c@example.fr', Phone: '0049 40 1234567' },
      ]),
    );
    expect(mixed.region).toMatchObject({ national: 1, region: 'DE' });
    const none = draftPipeline(
      'x.csv',
      sample([{ Name: 'A', Email: 'a@example.com', Phone: '030 1234567' }]),
    );
    expect(none.region).toEqual({ national: 1 });
    expect(none.pipeline.region).toBeUndefined();
    expect(emitDraft(none)).toContain(
      '1 sampled number without +country and no sign of their country: add `region: XX`',
    );
    const international = draftPipeline('x.csv', sample([{ Name: 'A', Phone: '+1 415 555 2671' }]));
    expect(international.region).toEqual({ national: 0 });
    expect(emitDraft(international)).not.toContain('without +country:');
  });

  it('names a draft from any file name', () => {
    expect(draftName('/tmp/---.csv')).toBe('draft');
    expect(draftName('Équipe.xlsx')).toBe('equipe');
  });
});
