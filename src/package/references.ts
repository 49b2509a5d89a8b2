import type { NormalizedRecord } from '../core/record.js';

export interface CustomFieldDefinition {
  name: string;
  fieldType: 'input' | 'autocomplete' | 'datepicker';
  /** Options of an autocomplete field: the declared ones and every value the run carries. */
  categories: string[];
}

/**
 * The groups and custom field definitions a run's contacts refer to, collected while staging so
 * they can be created before any contact that needs them.
 */
export class References {
  readonly groups = new Set<string>();
  private readonly fields = new Map<
    string,
    { fieldType: CustomFieldDefinition['fieldType']; categories: Set<string> }
  >();

  collect(record: Pick<NormalizedRecord, 'groups' | 'customFields'>): void {
    for (const group of record.groups) this.groups.add(group);
    for (const field of record.customFields) {
      let definition = this.fields.get(field.name);
      if (!definition) {
        definition = { fieldType: field.fieldType, categories: new Set(field.categories ?? []) };
        this.fields.set(field.name, definition);
      }
      if (field.fieldType === 'autocomplete') definition.categories.add(field.value);
    }
  }

  customFields(): CustomFieldDefinition[] {
    return [...this.fields.entries()].map(([name, d]) => ({
      name,
      fieldType: d.fieldType,
      categories: [...d.categories].sort(),
    }));
  }
}
