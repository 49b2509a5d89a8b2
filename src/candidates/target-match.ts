/**
 * A record the run would create, compared with the target's contacts a name search found. The
 * search answers carry names, company, job title, birthday and location but no e-mails or phones:
 * those fields are missing on the contact's side and say nothing. Scored with the model the run
 * learned from its own records.
 */
import type { ContactResponse } from '../core/schemas/index.js';
import { comparePrepared, newLevels } from './compare-pair.js';
import type { Nicknames } from './nicknames.js';
import { prepare, PrepareCache } from './prepare.js';
import { bandOf, reasonsOf, scorePair, type Bands } from './scoring.js';
import type { TermFrequencies } from './term-frequencies.js';
import type { Model } from './training.js';
import type { Band, PersonFields } from './types.js';

/** One record and one target contact taken for one person. */
export interface TargetMatch {
  contactId: string;
  contactName: string;
  score: number;
  band: Band;
  reasons: string[];
}

/** What the matcher reads of a contact as the service answers it. */
export const personOfContact = (contact: ContactResponse): PersonFields => {
  const birthday = contact.birthday ?? undefined;
  const year = (contact as { birthday_year?: number | null }).birthday_year;
  return {
    firstName: contact.first_name,
    lastName: contact.last_name,
    fullName: contact.full_name,
    company: contact.company,
    jobTitle: contact.job_title,
    birthday: birthday && year == null ? `--${birthday.slice(5, 10)}` : birthday?.slice(0, 10),
    city: contact.legacy_location,
  };
};

/**
 * The prior chance that a record to create and one contact its name search found are one person.
 * The records' own prior (matches among all pairs of records) says nothing of it: a file with no
 * two records of one person has a prior near zero, yet each of its people may be on the target.
 * One in a hundred such pairs: a namesake (same first and last name, nothing else agreeing) is
 * only `possible`, for a person to look at; the name and two more fields agreeing make `likely`.
 */
export const TARGET_PRIOR = 0.01;

export interface TargetScorer {
  /** The contacts that are in a band with the person, best first. */
  matches(person: PersonFields, contacts: readonly ContactResponse[]): TargetMatch[];
}

export const targetScorer = (
  fitted: { model: Model; frequencies: TermFrequencies },
  nicknames: Nicknames,
  bands: Bands,
): TargetScorer => {
  const model = { ...fitted.model, lambda: TARGET_PRIOR };
  // One for every record of the run: the names and companies the searches answer repeat.
  const cache = new PrepareCache(nicknames);
  return {
    matches(person, contacts) {
      const a = prepare(person, nicknames, cache);
      const levels = newLevels();
      const found: TargetMatch[] = [];
      for (const contact of contacts) {
        const fields = personOfContact(contact);
        const b = prepare(fields, nicknames, cache);
        levels.fill(0);
        const swapped = comparePrepared(a, b, nicknames, levels, 0);
        const score = scorePair(levels, a, b, swapped, model, fitted.frequencies);
        const band = bandOf(score, bands);
        if (!band) continue;
        const contactName =
          [fields.firstName, fields.lastName].filter(Boolean).join(' ') || (fields.fullName ?? '');
        found.push({
          contactId: contact.id,
          contactName,
          score,
          band,
          reasons: reasonsOf(levels, a, b, swapped),
        });
      }
      return found.sort((x, y) => y.score - x.score);
    },
  };
};
