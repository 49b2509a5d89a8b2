import { ImportError } from '../core/errors/index.js';
import type { InputInfo, OpenedSource, SourceItem } from './types.js';
import { MAX_RECORD_CHARS } from './limits.js';
import { repairLoneSurrogates, warnOtherEncoding } from './read-warnings.js';
import { withLiveEncoding, type TextSource } from './text-source.js';
import { splitCards, type ContentLine, type RawCard } from './vcard-cards.js';
import {
  BINARY_PROPERTIES,
  parseProperty,
  propertyName,
  type VCardVersion,
  type VProperty,
} from './vcard-property.js';
import { cardValues } from './vcard-record.js';
import { headerlessSource } from './headerless-source.js';

const versionOf = (lines: ContentLine[]): VCardVersion => {
  const version = lines.find((line) => propertyName(line.text) === 'VERSION');
  const number = version?.text.slice(version.text.indexOf(':') + 1).trim();
  return number === '2.1' || number === '4.0' ? number : '3.0';
};

interface CardOutcome {
  /** Absent for a card that is not a person (a group card): it is no record. */
  item?: SourceItem;
  photos: number;
}

/** KIND (4.0) or Apple's X-ADDRESSBOOKSERVER-KIND (3.0): `group` cards list members, not a person. */
const KIND_PROPERTIES = new Set(['KIND', 'X-ADDRESSBOOKSERVER-KIND']);
const isGroupCard = (lines: ContentLine[]): boolean =>
  lines.some(
    (line) =>
      KIND_PROPERTIES.has(propertyName(line.text)) &&
      line.text
        .slice(line.text.indexOf(':') + 1)
        .trim()
        .toLowerCase() === 'group',
  );

/** One card as a record of flat values (vcard-record.ts), or a problem naming its first bad line. */
const readCard = (card: RawCard, file: string, encoding: string): CardOutcome => {
  const where = `Card ${card.index} (line ${card.line}) of ${file}`;
  const problem = (code: 'row_unparseable' | 'invalid_encoding', message: string): CardOutcome => ({
    item: { kind: 'problem', file, row: card.index, line: card.line, code, message, raw: card.raw },
    photos: 0,
  });
  if (card.fault) return problem(card.fault.code, `${where} ${card.fault.message}.`);
  if (isGroupCard(card.lines)) return { photos: 0 };
  const version = versionOf(card.lines);
  const properties: VProperty[] = [];
  let photos = 0;
  for (const line of card.lines) {
    const name = propertyName(line.text);
    if (BINARY_PROPERTIES.has(name) || name === 'AGENT') {
      if (name === 'PHOTO') photos++;
      continue;
    }
    const parsed = parseProperty(line, version, encoding);
    if (!parsed.ok) return problem(parsed.code, `${where}: ${parsed.message}.`);
    properties.push(parsed.property);
  }
  return {
    item: {
      kind: 'row',
      file,
      row: card.index,
      line: card.line,
      values: cardValues(properties),
      raw: card.raw,
    },
    photos,
  };
};

/**
 * Reads a vCard file (2.1, 3.0 or 4.0; several cards, or single-card files joined) card by card:
 * row N is the Nth card, `line` its BEGIN:VCARD line, `raw` its text as written. A card that
 * cannot be read (cut short, a line that is no property, bytes invalid in its charset) is a
 * problem and reading goes on. Photos are counted in `info.ignored`, never mapped, and so are
 * group cards (KIND:group, Apple's X-ADDRESSBOOKSERVER-KIND:group): they name a group and its
 * members by UID, not a person, so they are no record (members' CATEGORIES still become groups).
 */
export function openVcard(text: TextSource, file: string): OpenedSource {
  const info: InputInfo = withLiveEncoding(
    { path: file, format: 'vcard', encoding: '', delimiter: null, rows: 0 },
    text,
  );

  async function* items(): AsyncGenerator<SourceItem> {
    try {
      const cards = splitCards(text.chunks, {
        maxCardChars: MAX_RECORD_CHARS,
        invalidSeen: () => text.transcoder.invalidSeen,
        encoding: text.encoding,
      });
      for await (const card of cards) {
        const { item, photos } = readCard(card, file, text.encoding);
        if (photos > 0) ignore(info, 'PHOTO', photos);
        if (item === undefined) {
          ignore(info, 'group card', 1);
          continue;
        }
        info.rows++;
        repairLoneSurrogates(item, text.transcoder, `Card ${info.rows}`);
        yield warnOtherEncoding(item, text.transcoder, `Card ${info.rows}`);
      }
      if (info.rows === 0 && info.ignored?.['group card'] === undefined) {
        throw new ImportError(
          'input_unreadable',
          `${file} holds no vCard: no BEGIN:VCARD line; expected cards from BEGIN:VCARD to END:VCARD.`,
          { file, line: 1 },
        );
      }
    } finally {
      await text.close();
    }
  }

  return headerlessSource(info, items(), text.close);
}

const ignore = (info: InputInfo, kind: string, count: number): void => {
  info.ignored ??= {};
  info.ignored[kind] = (info.ignored[kind] ?? 0) + count;
};
