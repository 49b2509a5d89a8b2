import { describe, expect, it } from 'vitest';
import type { ContactResponse } from '../../../src/core/schemas/index.js';
import type { RunEffect } from '../../../src/state/index.js';
import { decideUpdate, decideWithoutLookup } from '../../../src/undo/decide.js';

const ID = '11111111-1111-4111-8111-111111111111';

const updated = (detail: Record<string, unknown>): RunEffect => ({
  runId: 'r1',
  contactId: ID,
  kind: 'updated',
  key: 'ada@example.com',
  file: 'a.csv',
  row: 2,
  detail: { unknown: [], lists: [], email: 'ada@example.com', ...detail },
});

const contact = (fields: Partial<ContactResponse>): ContactResponse =>
  ({ id: ID, full_name: null, job_title: null, company: null, source: null, ...fields }) as ContactResponse;

describe('undo decisions', () => {
  it('puts back a field the service still holds as the run wrote it', () => {
    const effect = updated({ before: { job_title: 'Intern' }, after: { job_title: 'CTO' } });
    const d = decideUpdate(effect, contact({ job_title: 'CTO' }));
    expect(d.outcome).toBe('restored');
    expect(d.data).toEqual({ job_title: 'Intern' });
    expect(d.restored).toEqual([
      { file: 'a.csv', row: 2, contactId: ID, field: 'job_title', old: 'CTO', new: 'Intern' },
    ]);
  });

  it('keeps a field changed on the service since the run (a conflict), restores the others', () => {
    const effect = updated({
      before: { job_title: 'Intern', company: null },
      after: { job_title: 'CTO', company: 'Acme' },
    });
    const d = decideUpdate(effect, contact({ job_title: 'Edited', company: 'Acme' }));
    expect(d.outcome).toBe('conflicts');
    expect(d.data).toEqual({ company: null });
    expect(d.conflicts).toEqual([{ field: 'job_title', wrote: 'CTO', now: 'Edited' }]);
  });

  it('sends nothing for a field already back at its before-image (an undo resumed after a crash)', () => {
    const effect = updated({ before: { job_title: 'Intern' }, after: { job_title: 'CTO' } });
    const d = decideUpdate(effect, contact({ job_title: 'Intern' }));
    expect(d.outcome).toBe('restored');
    expect(d.data).toBeUndefined();
  });

  it('lists what it cannot put back: an empty source, list entries, unknown fields', () => {
    const effect = updated({
      before: { source: null },
      after: { source: 'csv_import' },
      lists: ['contact_phone_numbers: +1 415 555 0100'],
      unknown: ['education'],
    });
    const d = decideUpdate(effect, contact({ source: 'csv_import' }));
    expect(d.outcome).toBe('notUndone');
    expect(d.data).toBeUndefined();
    expect(d.notes).toEqual([
      'contact_phone_numbers: +1 415 555 0100 (a list entry the API cannot remove one by one)',
      'education written; its earlier value is not shown by the service',
      'source cannot be set back to "": the API takes no such value',
    ]);
  });

  it('archives created contacts, leaves definitions, repeats what an earlier undo settled', () => {
    const created: RunEffect = { runId: 'r1', contactId: ID, kind: 'created', key: 'k', file: '', row: 0 };
    expect(decideWithoutLookup(created)).toMatchObject({ outcome: 'archived', data: { is_archived: true } });
    const group: RunEffect = { ...created, kind: 'group', key: 'Friends' };
    expect(decideWithoutLookup(group)).toMatchObject({
      outcome: 'notUndone',
      notes: [expect.stringMatching(/^group "Friends"/)],
    });
    const settled: RunEffect = {
      ...created,
      undo: { outcome: 'archived', undoRunId: 'u1', detail: { conflicts: [], notes: [] } },
    };
    expect(decideWithoutLookup(settled)).toMatchObject({ outcome: 'archived', earlier: true });
    expect(decideWithoutLookup(settled)?.data).toBeUndefined();
    expect(
      decideWithoutLookup(updated({ before: { job_title: 'x' }, after: { job_title: 'y' } })),
    ).toBeUndefined();
    expect(decideWithoutLookup(updated({ before: null, after: { job_title: 'y' } }))?.outcome).toBe(
      'notUndone',
    );
  });
});
