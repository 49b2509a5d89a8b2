import type { ReadWarning, SourceRow } from './types.js';

/**
 * A record of an input with a header (CSV, TSV, a workbook's sheet) as a source row: its cells in
 * header order, and `values` (keyed by header name) built the first time it is read. The mapping
 * reads the cells by column index (mapping/cell-mapping.ts), so the object is built only for
 * whoever asks for a keyed view (a pipeline draft's sample, a column not in the header).
 */
export class HeaderRow implements SourceRow {
  readonly kind = 'row';
  warnings?: ReadWarning[];
  private keyed: Record<string, unknown> | undefined;

  constructor(
    readonly file: string,
    readonly row: number,
    readonly line: number,
    readonly raw: string,
    readonly cells: readonly string[],
    private readonly names: readonly string[],
    private readonly hasProtoName: boolean,
  ) {}

  get values(): Record<string, unknown> {
    return (this.keyed ??= valuesOfCells(this.names, this.cells, this.hasProtoName));
  }
}

/** A record's cells keyed by the header's names (`names` in the same order as `cells`). */
export const valuesOfCells = (
  names: readonly string[],
  cells: readonly string[],
  hasProtoName = names.includes('__proto__'),
): Record<string, unknown> => {
  const values: Record<string, unknown> = {};
  for (let index = 0; index < names.length; index++) {
    const name = names[index]!;
    // A column named __proto__ is data: plain assignment would set the object's prototype.
    if (hasProtoName && name === '__proto__') {
      Object.defineProperty(values, name, {
        value: cells[index],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else values[name] = cells[index];
  }
  return values;
};
