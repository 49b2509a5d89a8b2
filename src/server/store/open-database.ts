import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { ImportError } from '../../core/errors/import-error.js';
import { SCALAR_FIELDS } from './contact-columns.js';
import { SERVICE_TABLES, addMissingContactColumns, ddl, type Db } from './schema.js';

/** Marks a database file as the local service's (PRAGMA application_id): "CILS" as a 32-bit integer. */
export const SERVICE_APPLICATION_ID = 0x43494c53;

/**
 * A contact-import ledger's marks (src/state/migrations.ts; not imported: the service knows nothing
 * of runs): "CIL2", and "CIL1" of a ledger written before 1.0.
 */
const LEDGER_APPLICATION_IDS = [0x43494c32, 0x43494c31];

const hex = (n: number): string => `0x${n.toString(16).padStart(8, '0')}`;

/** Columns every service table has in any build (contact write fields are added on open). */
function expectedColumns(): Map<string, Set<string>> {
  const scratch = new Database(':memory:');
  try {
    scratch.exec(ddl());
    const scalar = new Set<string>(SCALAR_FIELDS);
    return new Map(
      [...SERVICE_TABLES].map((table) => {
        const columns = scratch.pragma(`table_info(${table})`) as { name: string }[];
        return [table, new Set(columns.map((c) => c.name).filter((c) => !scalar.has(c)))];
      }),
    );
  } finally {
    scratch.close();
  }
}

let expected: Map<string, Set<string>> | undefined;

/**
 * Why the database is not the service's, or undefined when it is (or is empty). Reads only, so a
 * file that is not ours (a contact-import ledger, another program's database) stays byte-identical.
 */
function foreignReason(db: Db): string | undefined {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  if (LEDGER_APPLICATION_IDS.includes(applicationId)) return 'it is a contact-import ledger (a --state file)';
  if (applicationId !== 0 && applicationId !== SERVICE_APPLICATION_ID) {
    return `it is marked as another program's database (application_id ${hex(applicationId)})`;
  }
  const objects = db
    .prepare("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view', 'trigger')")
    .all() as { name: string; type: string }[];
  const foreign = objects.filter((o) => !o.name.startsWith('sqlite_') && !SERVICE_TABLES.has(o.name));
  if (foreign.length > 0) {
    const names = foreign.slice(0, 5).map((o) => `${o.type} ${o.name}`);
    return `it holds ${names.join(', ')}${foreign.length > 5 ? ', ...' : ''}, which the local service does not make`;
  }
  expected ??= expectedColumns();
  for (const { name } of objects) {
    const want = expected.get(name);
    if (!want) continue;
    const have = new Set((db.pragma(`table_info(${name})`) as { name: string }[]).map((c) => c.name));
    const missing = [...want].filter((column) => !have.has(column));
    if (missing.length > 0) return `its table ${name} lacks the service's columns ${missing.join(', ')}`;
  }
  return undefined;
}

const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.message} (${code})` : error.message;
};

/**
 * Opens the service's database: a file path or `:memory:`. A new or empty file is made ours; a
 * file of ours from an older build gets the missing columns. A file that is not a SQLite database,
 * or a SQLite database of something else, is refused (ImportError `config_invalid` naming the
 * file) before anything is written to it.
 */
export function openDatabase(path: string): Db {
  const inMemory = path === ':memory:' || path === '';
  const where = inMemory ? 'in memory' : resolve(path);
  let db: Db | undefined;
  try {
    db = new Database(path);
    const reason = foreignReason(db);
    if (reason !== undefined) {
      throw new ImportError(
        'config_invalid',
        `The database file ${where} is not a local service database: ${reason}. It was left unchanged; give a new file or one made by contact-import serve.`,
        { file: where },
      );
    }
    if (!inMemory) {
      db.pragma('journal_mode = WAL');
      // A bulk create of 100 dirties some 200 scattered pages of the name and e-mail indexes. At
      // SQLite's default (a checkpoint, with its fsyncs, every 1,000 pages) a load checkpointed
      // every few requests and wrote each page back again and again. Every 10,000 pages (about
      // 40 MB of WAL) a load spends far less on checkpoints (figures: bench/README.md, "the
      // service's checkpoints").
      // The WAL file is cut back to 64 MB after a checkpoint, should a long reader have let it
      // grow past that.
      db.pragma('wal_autocheckpoint = 10000');
      db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
    }
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // Case-insensitive search beyond ASCII: SQLite's lower() only folds A-Z.
    db.function('lc', { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? value.toLowerCase() : null,
    );
    db.exec(ddl());
    addMissingContactColumns(db);
    db.pragma(`application_id = ${SERVICE_APPLICATION_ID}`);
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof ImportError) throw error;
    throw new ImportError(
      'config_invalid',
      `Cannot use the database file ${where}: ${describe(error)}; expected a SQLite file made by contact-import serve, or a path for a new one.`,
      { file: where },
      { cause: error },
    );
  }
}
