import type Database from 'better-sqlite3';
import type { ScopeStatements } from './scope-statements.js';
import { guarded } from './sqlite-errors.js';
import { withoutFsync } from './without-fsync.js';

/** One scope's contact images (load/known-image.ts): what its runs wrote to each contact. */
export class ContactImages {
  private readonly db: Database.Database;

  constructor(
    private readonly statements: ScopeStatements,
    private readonly scopeId: string,
    private readonly file: string,
  ) {
    this.db = statements.db;
  }

  get(keys: readonly string[]): Map<string, string> {
    return guarded(this.file, 'read contact images', () => {
      const found = new Map<string, string>();
      for (const [key, image] of this.statements.imageLookup.rows([this.scopeId], keys))
        found.set(key, image);
      return found;
    });
  }

  put(entries: readonly { key: string; image: string }[]): void {
    if (entries.length === 0) return;
    // Lost to a power loss, an image costs one update that changes nothing: no fsync.
    withoutFsync(this.db, () =>
      guarded(this.file, 'write contact images', () => {
        this.db
          .transaction(() => {
            for (const e of entries) this.statements.upsertImage.run(this.scopeId, e.key, e.image);
          })
          .immediate();
      }),
    );
  }
}
