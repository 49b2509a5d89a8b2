import { describe, expect, it } from 'vitest';
import { judge, rankCandidates } from '../../../src/mapping/detect-score.js';
import { loadPipeline } from '../../../src/mapping/index.js';

describe('rankCandidates weights shared columns down', () => {
  it('a column two pipelines name counts half for each', async () => {
    const [generic, mail] = await Promise.all([loadPipeline('generic'), loadPipeline('mail-client-csv')]);
    const header = ['First Name', 'E-mail Address', 'Mobile Phone', 'email'];
    const ranking = rankCandidates([
      { name: 'generic', spec: generic.spec, header },
      { name: 'mail-client-csv', spec: mail.spec, header },
    ]);
    expect(ranking.map((c) => [c.name, c.score])).toEqual([
      ['mail-client-csv', 2.5],
      ['generic', 1.5],
    ]);
    const verdict = judge([
      { name: 'generic', spec: generic.spec, header },
      { name: 'mail-client-csv', spec: mail.spec, header },
    ]);
    expect(verdict.kind === 'chosen' && verdict.best.name).toBe('mail-client-csv');
  });
});
