import { guessFromHeader, headerWords, type HeaderTarget } from './headers.js';
import { dominantKind, multiValueSeparator, shareOfKind } from './values.js';

/** What the draft does with one column, and the reason it gives in a YAML comment. */
export type ColumnGuess =
  | { mapped: true; target: HeaderTarget; reason: string; separator?: string; label?: string }
  | { mapped: false; reason: string };

/** Name prefixes, so a `Title` column of "Mr." is no job title. */
const HONORIFIC = /^(mr|mrs|ms|miss|mx|dr|prof|sir|dame|mme|mlle|m|herr|frau|sr|sra|srta)\.?$/i;

/** Header words that name a contact point's label ("Mobile", "Business Phone", "Home E-mail"). */
const LABEL_WORDS =
  /\b(mobile|cell|cellular|portable|handy|gsm|home|work|business|office|fax|main|personal|private|other)\b/;

const pointGuess = (
  header: string,
  section: 'emails' | 'phones',
  reason: string,
  separator: string | undefined,
): ColumnGuess => ({
  mapped: true,
  target: { section },
  reason,
  ...(separator !== undefined ? { separator } : {}),
  ...(LABEL_WORDS.test(headerWords(header)) ? { label: header.trim() } : {}),
});

/**
 * The best contact field for one column, from its header (synonyms) and a sample of its values.
 * Values win over the header for e-mails and phones: an `E-mail` column of "SMTP" is no e-mail
 * column, and a `Contact` column of addresses is one.
 */
export const guessColumn = (header: string, samples: readonly string[]): ColumnGuess => {
  const fromHeader = guessFromHeader(header);
  if (fromHeader === null)
    return { mapped: false, reason: 'describes another column (type, label, display name)' };
  const present = samples.filter((value) => value.trim() !== '');
  const kind = dominantKind(present);
  for (const section of ['emails', 'phones'] as const) {
    const valueKind = section === 'emails' ? 'email' : 'phone';
    const separator = multiValueSeparator(present, valueKind);
    if (kind === valueKind)
      return pointGuess(
        header,
        section,
        fromHeader?.section === section ? 'header and values' : `values look like ${section}`,
        separator,
      );
    if (fromHeader?.section === section) {
      if (present.length > 0 && shareOfKind(present, valueKind, separator) < 0.5)
        return { mapped: false, reason: `header says ${section} but most sampled values are not` };
      return pointGuess(
        header,
        section,
        present.length > 0 ? 'header and values' : 'header (no values sampled)',
        separator,
      );
    }
  }
  if (
    fromHeader?.section === 'fields' &&
    fromHeader.key === 'job_title' &&
    present.length > 0 &&
    present.every((v) => HONORIFIC.test(v.trim()))
  )
    return {
      mapped: true,
      target: { section: 'name_parts', key: 'prefix' },
      reason: 'header says title, values are honorifics',
    };
  if (fromHeader !== undefined) {
    const separator = fromHeader.section === 'groups' ? multiValueSeparator(present) : undefined;
    return {
      mapped: true,
      target: fromHeader,
      reason: 'header',
      ...(separator !== undefined ? { separator } : {}),
    };
  }
  if (kind === 'url')
    return { mapped: true, target: { section: 'fields', key: 'website' }, reason: 'values look like URLs' };
  if (kind === 'date')
    return { mapped: true, target: { section: 'fields', key: 'birthday' }, reason: 'values look like dates' };
  if (kind === 'yesno')
    return { mapped: false, reason: 'yes/no values: map it under fields.starred if it marks favourites' };
  return {
    mapped: false,
    reason:
      present.length === 0
        ? 'no hint in the header and no values sampled'
        : 'no hint in the header or values',
  };
};
