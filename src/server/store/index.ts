import { ContactSearcher } from './contact-search.js';
import { ContactStore } from './contacts.js';
import { CustomFieldStore } from './custom-fields.js';
import { GroupStore } from './groups.js';
import { IdempotencyStore } from './idempotency.js';
import { ReminderStore } from './reminders.js';
import { openDatabase } from './open-database.js';
import type { Db } from './schema.js';
import { UserStore } from './users.js';

/** The local service's data: one SQLite database, one store per resource, shared transactions. */
export class Store {
  readonly db: Db;
  readonly users: UserStore;
  readonly contacts: ContactStore;
  readonly search: ContactSearcher;
  readonly groups: GroupStore;
  readonly customFields: CustomFieldStore;
  readonly reminders: ReminderStore;
  readonly idempotency: IdempotencyStore;

  constructor(path: string) {
    this.db = openDatabase(path);
    this.users = new UserStore(this.db);
    this.contacts = new ContactStore(this.db);
    this.search = new ContactSearcher(this.db);
    this.groups = new GroupStore(this.db);
    this.customFields = new CustomFieldStore(this.db);
    this.reminders = new ReminderStore(this.db);
    this.idempotency = new IdempotencyStore(this.db);
    this.idempotency.purgeExpired();
  }

  /** Runs `work` in one transaction: a throw (a 400 found mid-way included) rolls everything back. */
  transaction<T>(work: () => T): T {
    // Contacts' lists are held in memory for the transaction's length only, so a rollback
    // never leaves them out of step with the database.
    return this.contacts.lists.keyed.batch(() => this.db.transaction(work)());
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

export type { ContactRow } from './contacts.js';
