import { resolve } from 'node:path';
import { expect } from 'vitest';
import type { LocalClient } from '../support/local-client.js';
import type { RunReport } from '../../src/report/run-report.js';
import type { Person } from '../e2e/generic-csv.js';
import { outcomes } from '../e2e/harness.js';

/** The hostile input corpus (see its README.md). */
export const HOSTILE = resolve(import.meta.dirname, '../fixtures/hostile');

/**
 * What the service must hold after the people of `writeGenericCsv` were loaded, however many
 * crashes, faults and reruns it took: each e-mail exactly once, with its phone, groups and custom
 * field value; each group and custom field definition exactly once. Returns the stored count.
 */
export const expectExactlyLoaded = async (client: LocalClient, rows: Person[]): Promise<number> => {
  const [contacts, groups, fields] = await Promise.all([
    client.local.contacts(),
    client.local.groups(),
    client.local.customFields(),
  ]);
  const groupNames = groups.map((g) => g.name).sort();
  expect(groupNames, 'each group created once').toEqual(
    [...new Set(rows.flatMap((p) => [p.group, 'Everyone']))].sort(),
  );
  expect(
    fields.map((f) => f.name),
    'the custom field created once',
  ).toEqual(['Favorite Color']);
  const groupName = new Map(groups.map((g) => [g.id, g.name]));

  const byEmail = new Map<string, (typeof contacts)[number]>();
  const twice: string[] = [];
  for (const contact of contacts) {
    for (const { email } of contact.contact_emails) {
      if (byEmail.has(email)) twice.push(email);
      byEmail.set(email, contact);
    }
  }
  expect(twice, 'no e-mail stored twice').toEqual([]);
  expect(contacts.length, 'one contact per row').toBe(rows.length);
  const wrong: string[] = [];
  for (const p of rows) {
    const stored = byEmail.get(p.email.toLowerCase());
    const groupsOf = stored?.groups_contacts.map((g) => groupName.get(g.group_id)).sort() ?? [];
    const ok =
      stored !== undefined &&
      stored.job_title === p.title &&
      stored.contact_phone_numbers[0]?.phone_number_sanitized === `+1${p.phone.replace(/\D/g, '')}` &&
      JSON.stringify(groupsOf) === JSON.stringify([p.group, 'Everyone'].sort()) &&
      stored.custom_fields.length === 1 &&
      stored.custom_fields[0]?.id === fields[0]!.id &&
      stored.custom_fields[0]?.text_value === p.color;
    if (!ok) wrong.push(p.email);
  }
  expect(wrong.slice(0, 5), `${wrong.length} contacts missing or with wrong values`).toEqual([]);
  return contacts.length;
};

/** The report invariant, and its totals against the number of contacts the service holds. */
export const expectTruthfulReport = (report: RunReport, stored: number, read: number): void => {
  expect(report.totals.read).toBe(read);
  expect(outcomes(report)).toBe(report.totals.read);
  expect(report.totals.failed).toBe(0);
  expect(report.totals.created + report.totals.updated + report.totals.unchanged).toBe(stored);
};
