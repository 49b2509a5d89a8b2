import { describe, expect, it } from 'vitest';
import { chunkBy, createBody, createBytes, updateBytes } from '../../../src/load/chunks.js';
import type { Planned } from '../../../src/load/resolve.js';
import type { ContactJson } from '../../../src/core/schemas/index.js';

const planned = (i: number, description: string, contactId?: string): Planned => {
  const write = { full_name: `P ${i}`, description };
  return {
    record: {
      file: 'a.csv',
      row: i + 1,
      line: i + 2,
      raw: '',
      input: 0,
      key: `k${i}`,
      contact: {},
      groups: [],
      customFields: [],
      reminders: [],
    },
    write,
    json: JSON.stringify(write) as ContactJson,
    hash: '',
    ...(contactId ? { contactId } : {}),
  } as Planned;
};

describe('chunks', () => {
  it('a create body built from the parts is byte for byte JSON.stringify({ contacts })', () => {
    const items = [planned(0, 'é "quoted"\n'), planned(1, 'x'.repeat(50))];
    expect(createBody(items)).toBe(JSON.stringify({ contacts: items.map((p) => p.write) }));
    const size = items.reduce((n, p) => n + createBytes(p), 0);
    expect(Buffer.byteLength(createBody(items))).toBeLessThanOrEqual(size + '{"contacts":[]}'.length);
  });

  it('bounds chunks by count and by bytes, and leaves out what fits no request', () => {
    const items = [
      planned(0, 'a'.repeat(400)),
      planned(1, 'b'.repeat(400)),
      planned(2, 'c'.repeat(5000)),
      planned(3, 'd'.repeat(10)),
      planned(4, 'e'.repeat(10)),
      planned(5, 'f'.repeat(10)),
    ];
    const { chunks, oversize } = chunkBy(items, { count: 2, bytes: 1000 }, createBytes);
    expect(oversize.map((p) => p.record.row)).toEqual([3]);
    expect(chunks.map((c) => c.map((p) => p.record.row))).toEqual([[1, 2], [4, 5], [6]]);
    for (const chunk of chunks) expect(Buffer.byteLength(createBody(chunk))).toBeLessThanOrEqual(1000);
    const bytes = chunkBy(items.slice(0, 2), { count: 10, bytes: 700 }, createBytes);
    expect(bytes.chunks.map((c) => c.length)).toEqual([1, 1]);
  });

  it('measures an E1 element with its id', () => {
    const p = planned(0, 'x', '00000000-0000-0000-0000-000000000001');
    const element = JSON.stringify({ contactId: p.contactId, data: p.write });
    expect(updateBytes(p)).toBe(Buffer.byteLength(element) + 1);
  });
});
