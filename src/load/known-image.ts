import type { ContactWrite } from '../core/schemas/index.js';
import { canonicalJson, type KnownImages } from '../state/index.js';

/**
 * What this ledger's runs wrote to one contact, merged under the service's merge rules
 * (docs/api-reference.md E2: omitted fields keep their value; lists merge by their key): scalar
 * fields by name, each list as its entries by merge key. The contact holds at least this (unless
 * edited by hand since), so a write it already contains changes nothing: `unchanged`, and nothing
 * is sent.
 */
export type KnownImage = Record<string, unknown>;

export type Entry = Record<string, unknown>;

/** Each list's merge key, as the service merges it (server/store/contact-lists.ts). */
export const LIST_KEYS: Record<string, (entry: Entry) => string> = {
  contact_emails: (e) => String(e.email).toLowerCase(),
  contact_phone_numbers: (p) => String(p.phone_number_sanitized ?? p.phone_number),
  groups_contacts: (g) => String(g.group_id),
  custom_fields: (c) => String(c.id),
  legacy_contact_addresses: (a) => String(a.formatted),
};

/**
 * What of an entry counts as a change: a custom field's value; of an e-mail, phone, group or
 * address only that it is there. Its order (`ranking`) and label are not compared: a file without
 * a label column labels every entry `other`, which is no news about a contact labelled `work`.
 */
const entryText = (field: string, entry: Entry): string =>
  field === 'custom_fields' ? String(entry.text_value) : '';

const asEntries = (value: unknown): Entry[] =>
  Array.isArray(value) ? value.filter((e): e is Entry => typeof e === 'object' && e !== null) : [];

/** The image once `write` is applied to it (`image` absent: the write alone). */
export const imageAfter = (image: KnownImage | undefined, write: ContactWrite): KnownImage => {
  const next: KnownImage = { ...image };
  for (const [field, value] of Object.entries(write)) {
    if (value === undefined) continue;
    const keyOf = LIST_KEYS[field];
    if (!keyOf) {
      next[field] = value;
      continue;
    }
    const list = { ...(next[field] as Record<string, string> | undefined) };
    for (const entry of asEntries(value)) list[keyOf(entry)] = entryText(field, entry);
    next[field] = list;
  }
  return next;
};

/**
 * What `write` would change on a contact that holds `image`: each scalar field set otherwise and
 * each list entry new or different (`field: key`). Empty: the write changes nothing.
 */
export const writeAdds = (image: KnownImage, write: ContactWrite): string[] => {
  const adds: string[] = [];
  for (const [field, value] of Object.entries(write)) {
    if (value === undefined) continue;
    const keyOf = LIST_KEYS[field];
    if (!keyOf) {
      if (canonicalJson(value ?? null) !== canonicalJson(image[field] ?? null)) adds.push(field);
      continue;
    }
    const known = (image[field] ?? {}) as Record<string, string>;
    for (const entry of asEntries(value)) {
      const key = keyOf(entry);
      if (known[key] !== entryText(field, entry)) adds.push(`${field}: ${key}`);
    }
  }
  return adds;
};

export const parseImage = (text: string | undefined): KnownImage | undefined => {
  if (text === undefined) return undefined;
  try {
    const image = JSON.parse(text) as unknown;
    return typeof image === 'object' && image !== null ? (image as KnownImage) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Keeps what the target applied: each record's write merged into its contact's image (a create:
 * the write alone). Called once the target answered, so an image never says more than the contact
 * holds.
 */
export const keepImages = (
  scope: KnownImages,
  items: readonly { record: { key: string }; write: ContactWrite }[],
  created: boolean,
): void => {
  if (items.length === 0) return;
  const known = created ? new Map<string, string>() : scope.getImages(items.map((p) => p.record.key));
  scope.putImages(
    items.map((p) => ({
      key: p.record.key,
      image: JSON.stringify(imageAfter(parseImage(known.get(p.record.key)), p.write)),
    })),
  );
};

/** Whether the image holds a list entry already (by its merge key): writing it adds nothing. */
export const imageHolds = (image: KnownImage | undefined, field: string, entry: Entry): boolean => {
  const keyOf = LIST_KEYS[field];
  const known = image?.[field] as Record<string, string> | undefined;
  return keyOf !== undefined && known !== undefined && keyOf(entry) in known;
};
