#!/usr/bin/env node
/**
 * Realistic export generator for the benchmarks: seeded and reproducible (same seed, rows and
 * format give the same bytes). Formats: `generic` (the service's own field names) and
 * `address-book-csv` (numbered `E-mail N - Value` columns, ` ::: ` joined values, labels).
 * Mixes phone formats and regions, several e-mails, groups, accents, quoted commas and newlines,
 * and a few percent of bad rows (invalid phone/e-mail, no identity, ragged) and duplicates.
 *
 *   node bench/generate.js --format generic --rows 100000 --seed 1 --out /tmp/big.csv
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

/** mulberry32: small, fast, good enough for test data, and identical on every machine. */
export const rng = (seed) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const FIRST = [
  'Ada',
  'José',
  'María',
  'Hans',
  'Zoë',
  'Jürgen',
  'Renée',
  'Søren',
  'Chloé',
  'Łukasz',
  'Ana',
  'John',
  'Mei',
  'Olu',
  'Priya',
  'Ivan',
  'Fatima',
  'Noah',
  'Élodie',
  'Björn',
  'Siobhán',
  'Ramón',
  'Aiko',
  'Kwame',
  'Grace',
];
const LAST = [
  'Lovelace',
  'García López',
  'Müller',
  'Fontaine',
  'Nowak',
  'Souza',
  "O'Brien",
  'Lefèvre',
  'Weiß',
  'Smith',
  'Hernández',
  'Kowalski',
  'Yılmaz',
  'Nguyen',
  'Okafor',
  'Petrov',
  'Dubois',
  'Andersson',
  'Rossi',
  'Tanaka',
];
const COMPANY = [
  'Analytical Engines',
  'Müller & Söhne, GmbH',
  'Telefónica, S.A.',
  'Acme Corp',
  'Banco Exemplo, S.A.',
  'Café Société',
  'Globex',
  'Initech',
  'Umbrella, Ltd.',
  '',
];
const TITLE = ['Engineer', 'Chief Engineer', 'Ingeniero', 'Gérante', 'Analyst', 'President', 'VP, Sales', ''];
const GROUPS = [
  'Friends',
  'Family',
  'Coworkers',
  'Golf',
  'Math Club',
  'Clients',
  'VIP',
  'Conference',
  'Partners',
];
const DOMAINS = ['example.com', 'example.org', 'example.de', 'example.fr', 'example.es', 'example.com.br'];
const COLORS = ['green', 'blue', 'red', 'yellow', ''];
const NOTES = [
  '',
  '',
  '',
  'Met at the conference, Berlin',
  'Call back\nafter "the launch"',
  'Prefers e-mail; not phone',
];
const LABELS = ['work', 'home', 'mobile', 'other', ''];

/** Valid numbers in assorted formats and regions; the US ones have no `+` (default region US). */
const phone = (r, n) => {
  const d4 = String(1000 + (n % 9000));
  const d3 = String(200 + (n % 700));
  switch (Math.floor(r() * 8)) {
    case 0:
      return `(415) 555-${d4}`;
    case 1:
      return `212.${d3}.${d4}`;
    case 2:
      return `+1 646 ${d3} ${d4}`;
    case 3:
      return `+44 20 7946 ${String(n % 10000).padStart(4, '0')}`;
    case 4:
      return `+49 30 ${String(900000 + (n % 99999))}`;
    case 5:
      return `+34 612 ${d3} ${String(n % 1000).padStart(3, '0')}`;
    case 6:
      return `+33 6 12 ${String(n % 100).padStart(2, '0')} 56 78`;
    default:
      return `+81 3-${d4}-${String(n % 10000).padStart(4, '0')}`;
  }
};

const pick = (r, list) => list[Math.floor(r() * list.length)];
const ascii = (s) =>
  s
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[^a-zA-Z]/g, '')
    .toLowerCase();

/** One person; `n` makes its e-mail unique, so duplicates are exactly the rows we make so. */
const person = (r, n) => {
  const first = pick(r, FIRST);
  const last = pick(r, LAST);
  const local = `${ascii(first)}.${ascii(last)}.${n}`;
  const emails = [`${local}@${pick(r, DOMAINS)}`];
  if (r() < 0.4) emails.push(`${ascii(first)[0]}${ascii(last)}${n}@${pick(r, DOMAINS)}`);
  if (r() < 0.1) emails.push(`${local}@mail.${pick(r, DOMAINS)}`);
  const phones = [phone(r, n)];
  if (r() < 0.3) phones.push(phone(r, n + 7));
  const groups = [];
  const g = Math.floor(r() * 3);
  for (let i = 0; i < g; i++) groups.push(pick(r, GROUPS));
  return {
    first,
    last,
    emails,
    phones,
    groups: [...new Set(groups)],
    company: pick(r, COMPANY),
    title: pick(r, TITLE),
    notes: pick(r, NOTES),
    color: pick(r, COLORS),
    birthday:
      r() < 0.3 ? `19${50 + Math.floor(r() * 50)}-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}` : '',
    starred: r() < 0.1,
  };
};

/** Faults applied to a row: a few percent in all. */
const spoil = (r, p) => {
  const x = r();
  if (x < 0.01) p.phones = ['12'];
  else if (x < 0.02) p.emails = ['not-an-email@'];
  else if (x < 0.025) {
    p.emails = [];
    p.phones = [];
    p.first = '';
    p.last = '';
    p.company = '';
  } else if (x < 0.03) return 'ragged';
  return undefined;
};

const csvCell = (v) => {
  const s = String(v ?? '');
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};
const line = (cells) => cells.map(csvCell).join(',') + '\n';

export const FORMATS = {
  generic: {
    header: [
      'full_name',
      'first_name',
      'last_name',
      'email',
      'email_label',
      'email_2',
      'email_3',
      'phone',
      'phone_label',
      'phone_2',
      'company',
      'job_title',
      'website',
      'birthday',
      'starred',
      'groups',
      'custom.Favorite Color',
      'description',
    ],
    row: (p, r) => [
      !p.first ? '' : r() < 0.2 ? `${p.last}, ${p.first}` : `${p.first} ${p.last}`,
      r() < 0.5 ? p.first : '',
      r() < 0.5 ? p.last : '',
      p.emails[0] ?? '',
      pick(r, LABELS),
      p.emails[1] ?? '',
      p.emails[2] ?? '',
      p.phones[0] ?? '',
      pick(r, LABELS),
      p.phones[1] ?? '',
      p.company,
      p.title,
      r() < 0.2 ? `example.org/${ascii(p.first)}` : '',
      p.birthday,
      p.starred ? 'yes' : '',
      p.groups.join(';'),
      p.color,
      p.notes,
    ],
  },
  'address-book-csv': {
    header: [
      'First Name',
      'Middle Name',
      'Last Name',
      'Name Prefix',
      'Name Suffix',
      'Nickname',
      'Organization Name',
      'Organization Title',
      'Birthday',
      'Notes',
      'Labels',
      'E-mail 1 - Label',
      'E-mail 1 - Value',
      'E-mail 2 - Label',
      'E-mail 2 - Value',
      'Phone 1 - Label',
      'Phone 1 - Value',
      'Phone 2 - Label',
      'Phone 2 - Value',
      'Website 1 - Value',
    ],
    row: (p, r) => [
      p.first,
      '',
      p.last,
      r() < 0.05 ? 'Dr.' : '',
      '',
      '',
      p.company,
      p.title,
      p.birthday,
      p.notes,
      ['* myContacts', ...(p.starred ? ['* starred'] : []), ...p.groups].join(' ::: '),
      '* Work',
      p.emails.slice(0, 2).join(' ::: '),
      'Home',
      p.emails[2] ?? '',
      'Mobile',
      p.phones[0] ?? '',
      'Work',
      p.phones[1] ?? '',
      '',
    ],
  },
};

/**
 * Writes `rows` data rows (plus header) to `out`. About 3% of rows are duplicates of an earlier
 * identity (same e-mail, other case, other phone); about 3% are bad. Returns what it made.
 */
export const generate = async ({ format = 'generic', rows, seed = 1, out }) => {
  const spec = FORMATS[format];
  if (!spec) throw new Error(`unknown format ${format}; expected one of ${Object.keys(FORMATS).join(', ')}`);
  const r = rng(seed);
  const stream = createWriteStream(out);
  let buffer = line(spec.header);
  const counts = { rows, duplicates: 0, bad: 0 };
  const recent = [];
  for (let n = 1; n <= rows; n++) {
    let p;
    if (recent.length > 0 && r() < 0.03) {
      p = { ...pick(r, recent) };
      p.emails = [p.emails[0].toUpperCase()];
      p.phones = [phone(r, n)];
      counts.duplicates++;
    } else {
      p = person(r, n);
      if (recent.length < 1000) recent.push(p);
      else recent[n % 1000] = p;
    }
    p = { ...p };
    const fault = spoil(r, p);
    if (fault !== undefined || p.emails[0] === 'not-an-email@' || p.phones[0] === '12' || p.first === '')
      counts.bad++;
    const cells = spec.row(p, r);
    if (fault === 'ragged') cells.push('extra');
    buffer += line(cells);
    if (buffer.length > 1 << 20) {
      if (!stream.write(buffer)) await once(stream, 'drain');
      buffer = '';
    }
  }
  stream.end(buffer);
  await once(stream, 'finish');
  return counts;
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      format: { type: 'string', default: 'generic' },
      rows: { type: 'string', default: '10000' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string' },
    },
  });
  if (!values.out) throw new Error('--out FILE is required');
  const counts = await generate({
    format: values.format,
    rows: Number(values.rows),
    seed: Number(values.seed),
    out: values.out,
  });
  console.log(JSON.stringify({ out: values.out, format: values.format, ...counts }));
}
