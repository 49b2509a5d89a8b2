export type EmailLabel = 'work' | 'home' | 'other';
export type PhoneLabel = 'mobile' | 'work' | 'home' | 'main' | 'fax' | 'other';

/**
 * Address-book exports mark the preferred value with a leading `* ` ("* Work"); mail-client
 * exports put the label in the column name ("Business Phone", "Home Fax"). Both are reduced to
 * lowercase words before matching.
 */
const LABEL_NOISE = /[^\p{L}\p{N}]+/gu;

function labelWords(label: string | undefined): string[] {
  if (label === undefined) return [];
  return label.toLowerCase().replace(LABEL_NOISE, ' ').trim().split(' ');
}

const WORK_WORDS = new Set(['work', 'business', 'office', 'company', 'job', 'corporate', 'work1', 'work2']);
const HOME_WORDS = new Set(['home', 'personal', 'private', 'home1', 'home2']);
const MOBILE_WORDS = new Set(['mobile', 'cell', 'cellular', 'iphone', 'handy', 'portable', 'car']);
const MAIN_WORDS = new Set(['main', 'primary', 'pref', 'preferred']);
const FAX_WORDS = new Set(['fax', 'telefax', 'facsimile']);

const hasAny = (words: string[], set: Set<string>): boolean => words.some((word) => set.has(word));

/**
 * A file has a handful of distinct labels and repeats them on every row: each one's answer is
 * kept (up to LABELS_KEPT of them, so a file of free-text labels cannot grow the map for ever).
 */
const LABELS_KEPT = 1000;
const remembered = <L>(answer: (label: string | undefined) => L) => {
  const known = new Map<string | undefined, L>();
  return (label?: string): L => {
    let found = known.get(label);
    if (found === undefined) {
      found = answer(label);
      if (known.size < LABELS_KEPT) known.set(label, found);
    }
    return found;
  };
};

/** docs/design.md: e-mail labels map to `work`, `home` or `other` (Custom, Internet, unknown: `other`). */
export const normalizeEmailLabel = remembered((label?: string): EmailLabel => {
  const words = labelWords(label);
  if (hasAny(words, WORK_WORDS)) return 'work';
  if (hasAny(words, HOME_WORDS)) return 'home';
  return 'other';
});

/**
 * Phone labels: `fax` wins over everything ("Business Fax" is a fax), then `mobile` ("Work
 * Mobile" is a mobile), `main` ("Company Main Phone"), `work`, `home`; anything else (Pager,
 * Assistant, Custom) is `other`.
 */
export const normalizePhoneLabel = remembered((label?: string): PhoneLabel => {
  const words = labelWords(label);
  if (hasAny(words, FAX_WORDS)) return 'fax';
  if (hasAny(words, MOBILE_WORDS)) return 'mobile';
  if (hasAny(words, MAIN_WORDS)) return 'main';
  if (hasAny(words, WORK_WORDS)) return 'work';
  if (hasAny(words, HOME_WORDS)) return 'home';
  return 'other';
});
