import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readReport, startService, tempDir, type TestService } from './harness.js';
import { runAsCli } from './cli-in-process.js';

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

const PIPELINE = `
name: crm-with-reminders
description: A CRM export with a tier picklist and follow-ups
region: US
fields:
  company: Company
emails:
  - column: Email
name_parts:
  full: Name
custom_fields:
  - column: Tier
    field_type: autocomplete
    categories: [Gold]
reminders:
  - text: Follow up
    due: Follow up on
    recurrence: Every
`;

const csv = (rows: string[][]) =>
  ['Name,Email,Company,Tier,Follow up,Follow up on,Every', ...rows.map((r) => r.join(','))].join('\n') + '\n';

describe('references and reminders across reruns', () => {
  it('creates reminders linked to their contacts, updates changed ones (E6), and updates a definition whose categories changed (E10)', async () => {
    svc = await startService();
    const dir = tempDir();
    writeFileSync(join(dir, 'crm.yaml'), PIPELINE);
    // `run crm.yaml crm.csv --target <svc> --out <out>` in this process: what is checked is what
    // the runs sent and reported, not what the command printed.
    const run = async (out: string) => ({
      code: (await runAsCli({ cwd: dir, svc: svc!, pipeline: 'crm.yaml', inputs: ['crm.csv'], out })).report
        .exitCode,
    });

    writeFileSync(
      join(dir, 'crm.csv'),
      csv([
        ['Ann Lee', 'ann@example.com', 'ACME', 'Gold', 'Send the offer', '2026-12-01', 'monthly'],
        ['Bo Chen', 'bo@example.com', 'Initech', 'Silver', 'Call back', '2026-12-05', ''],
        ['Cy Diaz', 'cy@example.com', 'Hooli', '', '', '', ''],
      ]),
    );
    expect((await run('first')).code).toBe(0);
    const first = readReport(join(dir, 'first'));
    expect(first.reminders).toEqual({ created: 2, updated: 0 });
    expect(first.customFields).toEqual({ created: 1, existing: 0 });

    const contacts = await svc.client.local.contacts();
    const idOf = (email: string) => contacts.find((c) => c.contact_emails[0]?.email === email)!.id;
    let reminders = await svc.client.local.reminders();
    expect(reminders.map((r) => [r.text, r.due_at_date, r.recurrence, r.contact_ids]).sort()).toEqual(
      [
        ['Call back', '2026-12-05T00:00:00Z', null, [idOf('bo@example.com')]],
        ['Send the offer', '2026-12-01T00:00:00Z', 'monthly', [idOf('ann@example.com')]],
      ].sort(),
    );
    let [tier] = await svc.client.local.customFields();
    expect(tier).toMatchObject({ name: 'Tier', field_type: 'autocomplete' });
    expect(tier!.categories.map((c) => c.category).sort()).toEqual(['Gold', 'Silver']);

    // Unchanged rerun: nothing sent beyond the probe.
    expect((await run('second')).code).toBe(0);
    const second = readReport(join(dir, 'second'));
    expect(second.reminders).toEqual({ created: 0, updated: 0 });
    expect(second.requests.sent).toBe(1);

    // Ann's follow-up moves; Cy gets a new tier (a new category for the definition).
    writeFileSync(
      join(dir, 'crm.csv'),
      csv([
        ['Ann Lee', 'ann@example.com', 'ACME', 'Gold', 'Send the offer', '2027-01-15', 'monthly'],
        ['Bo Chen', 'bo@example.com', 'Initech', 'Silver', 'Call back', '2026-12-05', ''],
        ['Cy Diaz', 'cy@example.com', 'Hooli', 'Bronze', '', '', ''],
      ]),
    );
    expect((await run('third')).code).toBe(0);
    const third = readReport(join(dir, 'third'));
    expect(third.reminders).toEqual({ created: 0, updated: 1 });
    expect(third.customFields).toEqual({ created: 0, existing: 1 });
    // Ann's contact itself is unchanged (her reminder is not part of it); Cy's has a new value.
    expect(third.totals).toMatchObject({ updated: 1, unchanged: 2 });
    reminders = await svc.client.local.reminders();
    expect(reminders).toHaveLength(2);
    expect(reminders.find((r) => r.text === 'Send the offer')!.due_at_date).toBe('2027-01-15T00:00:00Z');
    [tier] = await svc.client.local.customFields();
    expect(tier!.categories.map((c) => c.category).sort()).toEqual(['Bronze', 'Gold', 'Silver']);
    const cy = (await svc.client.local.contacts()).find(
      (c) => c.contact_emails[0]?.email === 'cy@example.com',
    )!;
    expect(cy.custom_fields).toMatchObject([{ id: tier!.id, text_value: 'Bronze' }]);
  });
});
