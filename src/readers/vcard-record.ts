import type { VProperty } from './vcard-property.js';

/**
 * A card as one flat record of named values, the way a pipeline maps a JSON object's keys
 * (docs/vcard.md lists every key):
 *   FN; N.family, N.given, N.additional, N.prefix, N.suffix; NICKNAME; ORG.name, ORG.unit;
 *   EMAIL.{n}.value / .label, TEL.{n}.value / .label, URL.{n}.value / .label;
 *   ADR.{n}.formatted / .label / .pobox / .extended / .street / .locality / .region / .code / .country;
 *   IMPP.<service>, SOCIALPROFILE.<service>; CATEGORIES (comma-joined);
 *   every other property under its name (TITLE, NOTE, BDAY, ROLE, X-...), the first one of each.
 * A label is Apple's `itemN.X-ABLabel` of the property's group when there is one, else its TYPE
 * words that say what kind of address or number it is (not pref, internet, voice, ...).
 */
export type CardValues = Record<string, string>;

const NUMBERED = new Set(['EMAIL', 'TEL', 'URL', 'ADR']);
const SOCIAL = new Set(['X-SOCIALPROFILE', 'SOCIALPROFILE']);
const ADR_PARTS = ['pobox', 'extended', 'street', 'locality', 'region', 'code', 'country'] as const;
const N_PARTS = ['family', 'given', 'additional', 'prefix', 'suffix'] as const;
/** TYPE words about the medium or preference, not about what kind of address or number it is. */
const NOT_KINDS = new Set([
  'pref',
  'internet',
  'x400',
  'voice',
  'msg',
  'video',
  'text',
  'bbs',
  'modem',
  'isdn',
  'pcs',
  'postal',
  'parcel',
  'dom',
  'intl',
]);

const nonEmpty = (text: string): boolean => text.trim() !== '';

/** A component's values (`Richter,James`), joined for reading. */
const joined = (values: string[] | undefined, separator = ' '): string =>
  (values ?? [])
    .map((value) => value.trim())
    .filter(nonEmpty)
    .join(separator);

/** The whole value as text: components by `; `, the values of one by `, `. */
const textOf = (property: VProperty): string =>
  property.parts
    .map((part) => joined(part, ', '))
    .filter(nonEmpty)
    .join('; ');

/** `_$!<HomeFAX>!$_` (Apple's built-in labels) -> `Home FAX`; custom labels stay as written. */
export const cleanLabel = (label: string): string => {
  const builtIn = /^_\$!<(.*)>!\$_$/.exec(label.trim());
  if (!builtIn) return label.trim();
  return builtIn[1]!.replace(/(?<=[a-z]{2})(?=[A-Z])/g, ' ').trim();
};

const typeLabel = (property: VProperty): string =>
  (property.params.type ?? [])
    .map((type) => type.toLowerCase())
    .filter((type) => !NOT_KINDS.has(type))
    .join(' ');

/** `tel:+1-418-656-9254;ext=102` -> `+1-418-656-9254;ext=102`. */
const phoneText = (text: string): string => text.replace(/^tel:/i, '');

/** `xmpp:jdoe`, `skype:jdoe`, `aim:///jdoe` -> the handle after the scheme. */
const afterScheme = (uri: string): string => uri.replace(/^[a-z][a-z0-9+.-]*:(?:\/\/\/?)?/i, '');

const serviceKey = (service: string | undefined): string | undefined => {
  const key = service?.toLowerCase().replace(/[^a-z0-9]+/g, '');
  return key === '' ? undefined : key;
};

/** One line for `legacy_contact_addresses[].formatted`: the parts in order, the city line as "City, Region Code". */
export const formatAddress = (parts: string[][]): string => {
  const piece = (i: number) =>
    joined(parts[i], ', ')
      .split(/\n+/)
      .map((line) => line.trim().replace(/[,\s]+$/, ''))
      .filter(nonEmpty)
      .join(', ');
  const cityLine = [piece(3), [piece(4), piece(5)].filter(nonEmpty).join(' ')].filter(nonEmpty).join(', ');
  return [piece(0), piece(1), piece(2), cityLine, piece(6)].filter(nonEmpty).join(', ');
};

class CardBuilder {
  readonly values: CardValues = {};
  private readonly counts = new Map<string, number>();
  private readonly categories: string[] = [];

  constructor(private readonly groupLabels: Map<string, string>) {}

  add(property: VProperty): void {
    const { name } = property;
    if (name === 'X-ABLABEL' || name === 'VERSION') return;
    if (name === 'CATEGORIES') {
      for (const value of property.parts.flat()) this.categories.push(...value.split(','));
      return;
    }
    const text = textOf(property);
    if (text === '') return;
    if (NUMBERED.has(name)) this.numbered(property, text);
    else if (name === 'N') this.name(property);
    else if (name === 'ORG') this.organization(property);
    else if (name === 'IMPP') {
      const service = serviceKey(
        property.params['x-service-type']?.[0] ?? /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1],
      );
      if (service) this.first(`IMPP.${service}`, afterScheme(text));
    } else if (SOCIAL.has(name)) {
      const { params } = property;
      const service = serviceKey((params.type ?? params['service-type'] ?? params['x-service-type'])?.[0]);
      // A profile link when there is one, else the user name (Apple writes `x-apple:jdoe` with x-user=jdoe).
      const handle = /^https?:/i.test(text) ? text : (params['x-user']?.[0] ?? afterScheme(text));
      if (service) this.first(`SOCIALPROFILE.${service}`, handle);
    } else this.first(name, text);
  }

  finish(): CardValues {
    const categories = this.categories.map((c) => c.trim()).filter(nonEmpty);
    if (categories.length > 0) this.values.CATEGORIES = categories.join(',');
    return this.values;
  }

  private first(key: string, text: string): void {
    if (text !== '' && !(key in this.values)) this.values[key] = text;
  }

  private numbered(property: VProperty, text: string): void {
    const { name } = property;
    const n = (this.counts.get(name) ?? 0) + 1;
    this.counts.set(name, n);
    const prefix = `${name}.${n}.`;
    const groupLabel = property.group === undefined ? undefined : this.groupLabels.get(property.group);
    const label = groupLabel ?? typeLabel(property);
    if (label !== '') this.values[`${prefix}label`] = label;
    if (name !== 'ADR') {
      this.values[`${prefix}value`] = name === 'TEL' ? phoneText(text) : text;
      return;
    }
    this.values[`${prefix}formatted`] = formatAddress(property.parts);
    ADR_PARTS.forEach((part, i) => {
      const value = joined(property.parts[i], ', ');
      if (value !== '') this.values[`${prefix}${part}`] = value;
    });
  }

  private name(property: VProperty): void {
    if ('N.family' in this.values || 'N.given' in this.values) return;
    N_PARTS.forEach((part, i) => {
      const value = joined(property.parts[i], part === 'suffix' ? ', ' : ' ');
      if (value !== '') this.values[`N.${part}`] = value;
    });
  }

  private organization(property: VProperty): void {
    if ('ORG.name' in this.values) return;
    const [name, ...units] = property.parts;
    this.first('ORG.name', joined(name, ', '));
    this.first(
      'ORG.unit',
      units
        .map((unit) => joined(unit, ', '))
        .filter(nonEmpty)
        .join(', '),
    );
  }
}

/** The flat record of one card's properties (binary ones already left out). */
export const cardValues = (properties: VProperty[]): CardValues => {
  const groupLabels = new Map<string, string>();
  for (const property of properties) {
    if (property.name !== 'X-ABLABEL' || property.group === undefined) continue;
    const label = cleanLabel(textOf(property));
    if (label !== '') groupLabels.set(property.group, label);
  }
  const builder = new CardBuilder(groupLabels);
  for (const property of properties) builder.add(property);
  return builder.finish();
};
