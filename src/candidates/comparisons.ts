/**
 * The per-field comparisons: each puts a pair in one of its levels, from 0 (differs) up to its
 * best (exact), or NULL when a side has no value, which says nothing either way. The model
 * (training.ts) learns how often each level occurs among pairs of one person (m) and among
 * pairs of two people (u).
 */
import type { Nicknames } from './nicknames.js';
import type { BirthDate, Prepared, PreparedName } from './prepare.js';
import { similarity, soundsAlike } from './similarity.js';

/** Level of a pair with a side missing: no evidence. */
export const NULL = -1;

export interface Comparison {
  field: string;
  /** What each level says, from 0 (differs) to the best. */
  levels: readonly string[];
  /** How often a level occurs among pairs of one person, before any data is seen. */
  priorM: readonly number[];
  /** How often among pairs of two people, before any data is seen. */
  priorU: readonly number[];
  /** For the best level: the value whose frequency says how rare the agreement is. */
  frequencyOf?: (p: Prepared) => string;
}

export const COMPARISONS = [
  {
    field: 'first_name',
    levels: ['differs', 'initial', 'sounds alike', 'typo', 'nickname', 'exact'],
    priorM: [0.04, 0.03, 0.05, 0.1, 0.08, 0.7],
    priorU: [0.93, 0.01, 0.03, 0.01, 0.005, 0.015],
    frequencyOf: (p: Prepared) => p.first,
  },
  {
    field: 'last_name',
    levels: ['differs', 'part of the other', 'sounds alike', 'typo', 'exact'],
    priorM: [0.04, 0.02, 0.04, 0.1, 0.8],
    priorU: [0.96, 0.005, 0.02, 0.005, 0.01],
    frequencyOf: (p: Prepared) => p.last,
  },
  {
    field: 'email',
    levels: ['differs', 'similar local part', 'same local part', 'same address'],
    priorM: [0.6, 0.05, 0.2, 0.15],
    priorU: [0.998, 0.001, 0.0008, 0.0002],
  },
  {
    field: 'phone',
    levels: ['differs', 'same last 7 digits', 'same number'],
    priorM: [0.3, 0.05, 0.65],
    priorU: [0.998, 0.001, 0.001],
  },
  {
    field: 'company',
    levels: ['differs', 'similar', 'same'],
    priorM: [0.3, 0.1, 0.6],
    priorU: [0.9, 0.02, 0.08],
  },
  {
    field: 'job_title',
    levels: ['differs', 'same'],
    priorM: [0.5, 0.5],
    priorU: [0.95, 0.05],
  },
  {
    field: 'birthday',
    levels: ['differs', 'same year', 'same day and month', 'one part off', 'exact'],
    priorM: [0.04, 0.03, 0.04, 0.1, 0.79],
    priorU: [0.97, 0.02, 0.003, 0.006, 0.001],
  },
  {
    field: 'street',
    levels: ['differs', 'similar', 'same'],
    priorM: [0.3, 0.1, 0.6],
    priorU: [0.995, 0.003, 0.002],
  },
  {
    field: 'postcode',
    levels: ['differs', 'same'],
    priorM: [0.3, 0.7],
    priorU: [0.99, 0.01],
    frequencyOf: (p: Prepared) => p.postcode,
  },
  {
    field: 'city',
    levels: ['differs', 'similar', 'same'],
    priorM: [0.2, 0.1, 0.7],
    priorU: [0.9, 0.02, 0.08],
    frequencyOf: (p: Prepared) => p.city,
  },
] as const satisfies readonly Comparison[];

export const FIELD = {
  first: 0,
  last: 1,
  email: 2,
  phone: 3,
  company: 4,
  job: 5,
  birthday: 6,
  street: 7,
  postcode: 8,
  city: 9,
} as const;

export const FIELD_COUNT = COMPARISONS.length;

/** A similarity this high is a typo of the same value. */
export const TYPO = 0.92;
const CLOSE = 0.85;
/** Streets are written in more ways than names: a lower similarity is still one street. */
export const STREET_SIMILAR = 0.88;

/** A first name compared with another side's name (its first, or its last when swapped). */
export const firstNameLevel = (a: PreparedName, b: PreparedName, nicknames: Nicknames): number => {
  const x = a.name;
  const y = b.name;
  if (x === '' || y === '') return NULL;
  if (x === y) return 5;
  if (nicknames.related(x, y)) return 4;
  if (x.length === 1 || y.length === 1) return x[0] === y[0] ? 1 : 0;
  const sim = similarity(x, y);
  if (sim >= TYPO) return 3;
  if (sim >= CLOSE || soundsAlike(a.codes, b.codes)) return 2;
  // `rob` for `robert`: a prefix of three letters or more.
  if (x.length >= 3 && y.length >= 3 && (x.startsWith(y) || y.startsWith(x))) return 2;
  return 0;
};

/** A last name compared with another side's name (its last, or its first when swapped). */
export const lastNameLevel = (a: PreparedName, b: PreparedName): number => {
  const x = a.name;
  const y = b.name;
  if (x === '' || y === '') return NULL;
  if (x === y) return 4;
  const sim = similarity(x, y);
  if (sim >= TYPO) return 3;
  if (sim >= CLOSE || soundsAlike(a.codes, b.codes)) return 2;
  if (x.length >= 4 && y.length >= 4 && (x.includes(y) || y.includes(x))) return 1;
  return 0;
};

export const textLevel = (x: string, y: string, similar = 0.9): number => {
  if (x === '' || y === '') return NULL;
  if (x === y) return 2;
  if (similarity(x, y) >= similar) return 1;
  return 0;
};

const SPACE = 0x20;

export const companyLevel = (x: string, y: string): number => {
  const level = textLevel(x, y);
  if (level !== 0) return level;
  // `acme` and `acme software`: one name is the start of the other.
  const shorter = x.length < y.length ? x : y;
  const longer = shorter === x ? y : x;
  return shorter.length >= 3 &&
    longer.length > shorter.length &&
    longer.charCodeAt(shorter.length) === SPACE &&
    longer.startsWith(shorter)
    ? 1
    : 0;
};

export const exactLevel = (x: string, y: string): number => (x === '' || y === '' ? NULL : x === y ? 1 : 0);

export const birthdayLevel = (x: BirthDate | undefined, y: BirthDate | undefined): number => {
  if (!x || !y) return NULL;
  const sameDay = x.month === y.month && x.day === y.day;
  if (x.year === undefined || y.year === undefined) return sameDay ? 2 : 0;
  const sameYear = x.year === y.year;
  if (sameYear && sameDay) return 4;
  const agreeing = Number(sameYear) + Number(x.month === y.month) + Number(x.day === y.day);
  if (agreeing === 2) return 3;
  // Day and month written the other way round (US and European order).
  if (sameYear && x.month === y.day && x.day === y.month) return 3;
  return sameYear ? 1 : 0;
};
