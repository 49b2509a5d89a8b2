/** The contact field a column's header names, by synonyms in the languages exports come in. */
export type HeaderTarget =
  | { section: 'name_parts'; key: 'full' | 'first' | 'middle' | 'last' | 'prefix' | 'suffix' | 'nickname' }
  | { section: 'fields'; key: string }
  | { section: 'emails' | 'phones' | 'groups' };

/** Lowercase words without accents or punctuation: `E-mail 1 - Value` -> `e mail 1 value`. */
export const headerWords = (header: string): string =>
  header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/([a-z])([0-9])/g, '$1 $2')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** A column that only describes another one, or names someone else: it fills no field. */
const NONE: HeaderTarget = { section: 'fields', key: '' };

/** Checked in order: the first rule whose pattern matches the header's words wins. */
const RULES: { pattern: RegExp; target: HeaderTarget }[] = [
  // Columns that describe another column's value (its type, label, display name) fill no field.
  { pattern: /\b(type|label|display name|yomi|phonetic|department|symbol|job description)\b/, target: NONE },
  { pattern: /\b(assistant|manager|spouse|children|referred|maiden|owner)\b/, target: NONE },
  {
    pattern: /\b(address|adresse) .*\b(street|city|postal|zip|po box|region|state|country|extended)\b/,
    target: NONE,
  },
  { pattern: /\b(e ?mails?|mail|courriel|correo|email address)\b/, target: { section: 'emails' } },
  {
    pattern: /\b(phones?|mobile|tel|telephone|telefon|telefono|cell|cellular|portable|handy|fax|pager|gsm)\b/,
    target: { section: 'phones' },
  },
  {
    pattern: /\b(first|given|forename|prenom|vorname|nombre)\b/,
    target: { section: 'name_parts', key: 'first' },
  },
  { pattern: /\b(middle|additional name|second name)\b/, target: { section: 'name_parts', key: 'middle' } },
  {
    pattern: /\b(last|family|surname|nom de famille|nachname|apellidos?)\b/,
    target: { section: 'name_parts', key: 'last' },
  },
  { pattern: /\b(nickname|nick|surnom|short name)\b/, target: { section: 'name_parts', key: 'nickname' } },
  { pattern: /\b(prefix|salutation|honorific|civilite)\b/, target: { section: 'name_parts', key: 'prefix' } },
  { pattern: /\bsuffix\b/, target: { section: 'name_parts', key: 'suffix' } },
  {
    pattern: /\b(birthday|birth ?date|date of birth|dob|bday|anniversaire|date de naissance|geburtstag)\b/,
    target: { section: 'fields', key: 'birthday' },
  },
  {
    pattern: /\b(title|job|position|role|occupation|poste|fonction|profession)\b/,
    target: { section: 'fields', key: 'job_title' },
  },
  {
    pattern: /\b(company|organi[sz]ation|org|employer|societe|entreprise|firma|empresa|account name)\b/,
    target: { section: 'fields', key: 'company' },
  },
  {
    pattern: /\b(website|url|web ?page|homepage|web|site|site web)\b/,
    target: { section: 'fields', key: 'website' },
  },
  {
    pattern: /\b(notes?|description|comments?|remarks?|memo)\b/,
    target: { section: 'fields', key: 'description' },
  },
  {
    pattern: /\b(tags?|groups?|categories|category|labels|lists?|group membership)\b/,
    target: { section: 'groups' },
  },
  { pattern: /\b(starred|favou?rites?|vip)\b/, target: { section: 'fields', key: 'starred' } },
  { pattern: /\b(address|adresse|addr)\b/, target: { section: 'fields', key: 'legacy_contact_addresses' } },
  { pattern: /\b(city|town|location|ville)\b/, target: { section: 'fields', key: 'legacy_location' } },
  { pattern: /\b(school|education|university)\b/, target: { section: 'fields', key: 'education' } },
  // Last: a bare "name" (or "Nom", which French exports use for the family name) after every longer form.
  { pattern: /^(nom|nombre de familia)$/, target: { section: 'name_parts', key: 'last' } },
  {
    pattern: /\b(name|full name|contact|nom complet|display)\b/,
    target: { section: 'name_parts', key: 'full' },
  },
];

/**
 * The target a header names, `null` when it names a column that only describes another one
 * (`E-mail 1 - Type`), undefined when it gives no hint.
 */
export const guessFromHeader = (header: string): HeaderTarget | null | undefined => {
  const words = headerWords(header);
  const rule = RULES.find(({ pattern }) => pattern.test(words));
  if (rule === undefined) return undefined;
  if (rule.target === NONE) return null;
  return rule.target;
};
