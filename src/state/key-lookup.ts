import type Database from 'better-sqlite3';

/** Keys per IN (...) query: well under SQLite's variable limit, large enough to amortize calls. */
const LOOKUP_CHUNK = 500;

/**
 * A SELECT of rows by many keys: `sqlOf(placeholders)` is the query with `IN (placeholders)`,
 * prepared once per distinct chunk size (raw rows), and keys are asked LOOKUP_CHUNK at a time.
 */
export class KeyLookup<Row extends unknown[]> {
  private readonly statements = new Map<number, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly sqlOf: (placeholders: string) => string,
  ) {}

  /** Every row for `keys`, the statement's other parameters (`leading`) bound before them. */
  *rows(leading: readonly unknown[], keys: readonly string[]): Generator<Row> {
    for (let start = 0; start < keys.length; start += LOOKUP_CHUNK) {
      const slice = keys.slice(start, start + LOOKUP_CHUNK);
      yield* this.statement(slice.length).all(...leading, ...slice) as Row[];
    }
  }

  private statement(count: number): Database.Statement {
    let statement = this.statements.get(count);
    if (!statement) {
      const placeholders = new Array<string>(count).fill('?').join(',');
      statement = this.db.prepare(this.sqlOf(placeholders)).raw(true);
      this.statements.set(count, statement);
    }
    return statement;
  }
}
