import { guessColumn } from './draft/guess.js';
import { unreadColumns } from './header-check.js';
import type { Pipeline } from './pipeline.js';

/** What a column left unused would have given a contact. */
export type LostKind = 'name' | 'e-mail' | 'phone';

export interface LostColumn {
  column: string;
  kind: LostKind;
}

/** Name parts a contact is found and told apart by; a prefix or nickname left out loses no one. */
const NAME_PARTS = new Set(['full', 'first', 'middle', 'last']);

/**
 * The columns of a header that a pipeline reads nothing from although they hold a name, an
 * e-mail or a phone: by their header words or, for e-mails and phones, by their sampled values
 * (init's guessers, so both agree). A column with no value in the sample loses nothing.
 */
export const lostColumns = (
  pipeline: Pipeline,
  header: readonly string[],
  samples: ReadonlyMap<string, readonly string[]>,
): LostColumn[] => {
  const lost: LostColumn[] = [];
  for (const column of unreadColumns(pipeline, header).columns) {
    const values = samples.get(column) ?? [];
    if (!values.some((value) => value.trim() !== '')) continue;
    const guess = guessColumn(column, values);
    if (!guess.mapped) continue;
    const { target } = guess;
    if (target.section === 'emails') lost.push({ column, kind: 'e-mail' });
    else if (target.section === 'phones') lost.push({ column, kind: 'phone' });
    else if (target.section === 'name_parts' && NAME_PARTS.has(target.key))
      lost.push({ column, kind: 'name' });
  }
  return lost;
};

/** `Prénom (name), Courriel (e-mail)` */
export const describeLost = (lost: readonly LostColumn[]): string =>
  lost.map(({ column, kind }) => `${column} (${kind})`).join(', ');
