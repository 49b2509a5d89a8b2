import type { ContactWrite } from '../core/schemas/index.js';
import { contentHash } from '../state/index.js';
import type { NormalizedRecord } from '../normalize/record.js';

export interface ReferenceIds {
  groups: Map<string, string>;
  customFields: Map<string, string>;
}

/** The contact as the service receives it: references by id (DESIGN.md "References first"). */
export const toWriteObject = (record: NormalizedRecord, ids: ReferenceIds): ContactWrite => {
  const write: ContactWrite = { ...record.contact };
  const groups = record.groups.flatMap((name) => {
    const id = ids.groups.get(name);
    return id ? [{ group_id: id }] : [];
  });
  if (groups.length > 0) write.groups_contacts = groups;
  const values = record.customFields.flatMap((field) => {
    const id = ids.customFields.get(field.name);
    return id ? [{ id, type: field.fieldType, text_value: field.value }] : [];
  });
  if (values.length > 0) write.custom_fields = values;
  return write;
};

/** What "unchanged" compares: the write object, so a changed group or field id counts too. */
export const writeHash = (write: ContactWrite): string => contentHash(write);
