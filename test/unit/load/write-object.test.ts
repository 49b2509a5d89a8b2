import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../../src/client/index.js';
import type { ContactWrite } from '../../../src/core/schemas/index.js';
import type { NormalizedRecord } from '../../../src/core/record.js';
import { Resolver } from '../../../src/load/resolve.js';
import { createChunk, updateChunk, type SendEvents } from '../../../src/load/send.js';
import { toWrite, writeHash } from '../../../src/load/write-object.js';
import { canonicalJson, contentHash, openLedger } from '../../../src/state/index.js';
import { perTest } from '../../support/per-test.js';
import { startRewritingProxy } from '../../support/rewriting-proxy.js';

const t = perTest();

const GROUP_ID = '00000000-0000-4000-8000-0000000000aa';
const FIELD_ID = '00000000-0000-4000-8000-0000000000bb';
const ids = { groups: new Map([['Friends', GROUP_ID]]), customFields: new Map([['Tier', FIELD_ID]]) };

const recordOf = (i: number, contact: NormalizedRecord['contact'], refs = false): NormalizedRecord => ({
  file: 'a.csv',
  row: i + 1,
  line: i + 2,
  input: 0,
  key: `email:p${i}@example.com`,
  // Keys deliberately out of order, at the top and inside the lists.
  contact: {
    ...contact,
    contact_emails: [{ ranking: 1, label: 'work', email: `p${i}@example.com` }],
    full_name: `Person ${i}`,
  },
  groups: refs ? ['Friends', 'Unknown group'] : [],
  customFields: refs ? [{ name: 'Tier', value: 'gold', fieldType: 'input' }] : [],
  reminders: [],
});

const sha = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** The texts of the values directly inside a JSON array or object, byte for byte as they stand. */
const children = (text: string): string[] => {
  const parts: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      if (--depth === 0) parts.push(text.slice(start, i));
    } else if (c === ',' && depth === 1) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  // An object's member: its value, after `"name":`.
  return text.startsWith('{') ? parts.map((member) => member.slice(member.indexOf('":') + 2)) : parts;
};

describe('a write is serialized once', () => {
  it('its text is its canonical JSON, so its hash is the one a ledger recorded before', () => {
    const contacts: NormalizedRecord['contact'][] = [
      { description: 'é "quoted"\n\u2028 tab\t', company: 'Acme' },
      {
        contact_phone_numbers: [
          { ranking: 1, phone_number: '+1 555 0100', country_code: 'US', label: 'cell' },
        ],
        // As the staging's JSON.parse makes it: `__proto__` an own key.
        worknet_data: JSON.parse(
          '{"zeta":{"b":1,"a":[{"y":true,"x":null}]},"alpha":"first","__proto__":"kept"}',
        ),
        birthday_year: 1990,
        starred: false,
      },
      // Integer-like keys JSON.stringify writes in numeric order, not sorted order.
      { web_search_summary: { '10': 'ten', '2': 'two', b: 'bee' } },
      // Ordered already at every depth.
      { company: 'Acme', description: 'd' },
    ];
    contacts.forEach((contact, i) => {
      const record = recordOf(i, contact, i % 2 === 0);
      const { write, json } = toWrite(record, ids);
      expect(json).toBe(canonicalJson(write));
      expect(writeHash(json)).toBe(contentHash(write));
      expect(writeHash(json)).toBe(sha(json));
      expect(JSON.parse(json)).toEqual(JSON.parse(canonicalJson(write)!));
    });
    const { write } = toWrite(recordOf(0, {}, true), ids);
    expect(write.groups_contacts).toEqual([{ group_id: GROUP_ID }]);
    expect(write.custom_fields).toEqual([{ id: FIELD_ID, text_value: 'gold', type: 'input' }]);
    const proto = toWrite(recordOf(1, contacts[1]!), ids).json;
    expect(proto).toContain('"__proto__":"kept"');
  });

  it('hashes exactly the bytes each create and E1 body carries', async () => {
    const svc = await t.start();
    const proxy = await startRewritingProxy(svc.service.url);
    t.closeLater(() => proxy.close());
    const client = createClient({ baseUrl: proxy.url, apiKey: svc.key, minRetryDelayMs: 5 });
    t.closeLater(() => client.close());
    const ledger = openLedger({ dir: t.dir() });
    t.closeLater(async () => ledger.close());
    ledger.startRun({
      runId: 'r1',
      scopeId: 'local',
      pipeline: 'generic',
      inputs: ['a.csv'],
      dryRun: false,
      startedAt: new Date().toISOString(),
    });
    const scope = ledger.scope('local');
    const events: SendEvents = { settled: () => {}, failed: () => {}, gone: () => {} };
    const none = { groups: new Map<string, string>(), customFields: new Map<string, string>() };
    const records = (description: string) =>
      [0, 1, 2].map((i) =>
        recordOf(i, {
          description: `${description} ${i} é "q"`,
          contact_phone_numbers: [{ label: 'cell', phone_number: `+1555010${i}`, country_code: 'US' }],
        }),
      );
    const resolver = () => new Resolver({ scope, client, match: 'none', ids: none, targetWasEmpty: false });

    const first = await resolver().plan(records('first'));
    expect(first.creates).toHaveLength(3);
    await createChunk(first.creates, { client, scope, runId: 'r1', idempotencyKey: 'r1-c0', events });
    const keys = first.creates.map((p) => p.record.key);
    const created = proxy.bodies.filter((b) => b.method === 'POST' && b.path.startsWith('/v1/contacts'));
    expect(created).toHaveLength(1);
    const createText = created[0]!.body.toString('utf8');
    const elements = children(children(createText)[0]!);
    const hashes = [...scope.getContacts(keys).values()].map((entry) => entry.hash);
    expect(elements.map(sha)).toEqual(keys.map((key) => scope.getContacts([key]).get(key)!.hash));
    expect(new Set(hashes).size).toBe(3);
    // The same bytes under the hash a ledger of the previous version computed (canonical JSON).
    expect(elements.map((e) => contentHash(JSON.parse(e) as ContactWrite))).toEqual(elements.map(sha));

    const second = await resolver().plan(records('second'));
    expect(second.updates).toHaveLength(3);
    await updateChunk(second.updates, { client, scope, events });
    const updated = proxy.bodies.filter((b) => b.method === 'PUT' && b.path.startsWith('/v1/contacts'));
    expect(updated).toHaveLength(1);
    const data = children(updated[0]!.body.toString('utf8')).map((element) => children(element)[1]!);
    expect(data.map(sha)).toEqual(keys.map((key) => scope.getContacts([key]).get(key)!.hash));
    expect(data.map(sha)).not.toEqual(elements.map(sha));

    // The file again: every record unchanged, nothing sent.
    const third = await resolver().plan(records('second'));
    expect(third.unchanged).toHaveLength(3);
  });
});
