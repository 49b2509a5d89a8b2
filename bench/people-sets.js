/**
 * The labelled person sets of ../shared/testdata/people (FEBRL 1-3, Splink's fake_1000) read as
 * the duplicate-candidates matcher's people, with the truth: which records are one person.
 * Shared by bench/candidates.js and the unit tests that hold the matcher to its figures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const PEOPLE_DIR = new URL('../../shared/testdata/people/', import.meta.url).pathname;

/** A CSV without quoted cells (these files have none), trimmed cells, by header name. */
const readRows = (path) => {
  const [header, ...lines] = readFileSync(path, 'utf8')
    .split(/\r?\n/u)
    .filter((l) => l !== '');
  const names = header.split(',').map((h) => h.trim());
  return lines.map((line) => {
    const cells = line.split(',').map((c) => c.trim());
    return Object.fromEntries(names.map((n, i) => [n, cells[i] ?? '']));
  });
};

const febrlDate = (value) =>
  /^\d{8}$/u.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}` : undefined;

/**
 * A FEBRL set. `idNumber`: the social security number, read as a phone (a near-unique number with
 * typos, which is what a phone is to the matcher). `birthDate`: keep the date of birth.
 */
export const febrl = (name, { idNumber = false, birthDate = true, address = true } = {}) =>
  readRows(join(PEOPLE_DIR, `${name}.csv`)).map((row) => ({
    entity: /^rec-(\d+)-/u.exec(row.rec_id)[1],
    person: {
      firstName: row.given_name || undefined,
      lastName: row.surname || undefined,
      ...(birthDate ? { birthday: febrlDate(row.date_of_birth) } : {}),
      ...(address
        ? {
            street: [row.street_number, row.address_1].filter(Boolean).join(' ') || undefined,
            postcode: row.postcode || undefined,
            city: row.suburb || undefined,
          }
        : {}),
      ...(idNumber && row.soc_sec_id ? { phones: [row.soc_sec_id] } : {}),
    },
  }));

export const fake1000 = () =>
  readRows(join(PEOPLE_DIR, 'fake_1000.csv')).map((row) => ({
    entity: row.cluster,
    person: {
      firstName: row.first_name || undefined,
      lastName: row.surname || undefined,
      birthday: row.dob || undefined,
      city: row.city || undefined,
      emails: row.email ? [row.email] : [],
    },
  }));

/** Pairs (i < j) given as `i,j` strings: all pairs of records of one entity. */
export const truePairs = (records) => {
  const byEntity = new Map();
  records.forEach((r, i) => {
    const list = byEntity.get(r.entity) ?? [];
    list.push(i);
    byEntity.set(r.entity, list);
  });
  const pairs = new Set();
  for (const list of byEntity.values()) {
    for (let x = 0; x < list.length; x++)
      for (let y = x + 1; y < list.length; y++) pairs.add(`${list[x]},${list[y]}`);
  }
  return pairs;
};

/** Precision, recall and F1 of predicted pairs (`{a, b}` with a < b) against the truth. */
export const score = (predicted, truth) => {
  let hits = 0;
  for (const { a, b } of predicted) if (truth.has(`${a},${b}`)) hits++;
  const precision = predicted.length === 0 ? 1 : hits / predicted.length;
  const recall = truth.size === 0 ? 1 : hits / truth.size;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, predicted: predicted.length, truth: truth.size };
};

const fold = (v) =>
  (v ?? '')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/** The baseline: every pair with the same first and last name. */
export const exactNamePairs = (people) => {
  const byName = new Map();
  people.forEach((p, i) => {
    const first = fold(p.firstName);
    const last = fold(p.lastName);
    if (!first || !last) return;
    const key = `${first} ${last}`;
    const list = byName.get(key) ?? [];
    list.push(i);
    byName.set(key, list);
  });
  const pairs = [];
  for (const list of byName.values()) {
    for (let x = 0; x < list.length; x++)
      for (let y = x + 1; y < list.length; y++) pairs.push({ a: list[x], b: list[y] });
  }
  return pairs;
};
