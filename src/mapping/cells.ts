/**
 * Reading values out of a source row without normalizing them: emptiness, multi-value splitting
 * and JSON lists. Trimming, case and parsing stay with the normalize stage; the one exception is
 * the parts of a split cell, which lose the spaces around the separator.
 */

export interface CellValue {
  value: string;
  /** The source column, or `column[i]` / `column[i].key` for a JSON list element. */
  field: string;
  label?: string;
}

export interface ExplodeOptions {
  /** Splits text cells; undefined or false keeps a cell whole. */
  separator?: string | false;
  /** For JSON list elements (or a lone object) that are objects: the key of the value. */
  valueKey?: string;
  /** The key of the element's label. */
  labelKey?: string;
}

export class Cells {
  private readonly empty: Set<string>;

  constructor(emptyValues: readonly string[]) {
    this.empty = new Set(emptyValues.map((v) => v.trim()));
  }

  /** False for absent, null, blank, a declared empty value (`0/0/00`), an empty list or object. */
  present(value: unknown): boolean {
    if (value === undefined || value === null) return false;
    if (typeof value === 'string') {
      const trimmed = value.trim();
      return trimmed !== '' && !this.empty.has(trimmed);
    }
    if (Array.isArray(value)) return value.length > 0;
    if (typeof value === 'object') return Object.keys(value).length > 0;
    return true;
  }

  /** A scalar as text (JSON numbers and booleans included); undefined when not present. */
  text(value: unknown): string | undefined {
    if (!this.present(value)) return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
      return String(value);
    return JSON.stringify(value);
  }

  /** Every value a cell holds: split text, each element of a JSON list, or the one value. */
  explode(raw: unknown, field: string, options: ExplodeOptions = {}): CellValue[] {
    if (!this.present(raw)) return [];
    if (Array.isArray(raw)) {
      const out: CellValue[] = [];
      raw.forEach((element, i) => out.push(...this.fromElement(element, `${field}[${i}]`, options)));
      return out;
    }
    if (typeof raw === 'string' && options.separator) {
      const out: CellValue[] = [];
      for (const part of raw.split(options.separator)) {
        const value = part.trim();
        if (this.present(value)) out.push({ value, field });
      }
      return out;
    }
    return this.fromElement(raw, field, options);
  }

  private fromElement(element: unknown, field: string, options: ExplodeOptions): CellValue[] {
    if (!this.present(element)) return [];
    if (typeof element === 'object' && !Array.isArray(element) && options.valueKey !== undefined) {
      const record = element as Record<string, unknown>;
      const value = this.text(record[options.valueKey]);
      if (value === undefined) return [];
      const out: CellValue = { value, field: `${field}.${options.valueKey}` };
      const label = options.labelKey === undefined ? undefined : this.text(record[options.labelKey]);
      if (label !== undefined) out.label = label;
      return [out];
    }
    const value = this.text(element);
    return value === undefined ? [] : [{ value, field }];
  }
}
