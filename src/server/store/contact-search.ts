import type { Statement } from 'better-sqlite3';
import type { ContactRow } from './contacts.js';
import type { Db } from './schema.js';

export interface ContactSearch {
  /** Matched case-insensitively; empty or absent matches everything. */
  term?: string;
  /**
   * Equality instead of a substring match: with an e-mail for a term with `@` (an e-mail search
   * finds who holds the address, never someone whose name is that text), else with an e-mail or
   * the full name.
   */
  exact?: boolean;
  includeArchived?: boolean;
  /** true: only contacts in some group; false: only contacts in none. */
  hasGroups?: boolean;
  afterSeq: number;
  /** Rows to return (pass take + 1 to learn whether another page exists). */
  limit: number;
}

const SUBSTRING = `(instr(c.full_name_lc, @term) > 0 OR instr(lc(c.first_name), @term) > 0
  OR instr(lc(c.last_name), @term) > 0 OR instr(lc(c.company), @term) > 0
  OR EXISTS (SELECT 1 FROM contact_emails e WHERE e.contact_id = c.id AND instr(e.email_lc, @term) > 0))`;

// Drives the lookup from the two indexes (full name, e-mail) instead of scanning the user's contacts.
const EXACT_EMAIL = `SELECT c2.seq FROM contact_emails e JOIN contacts c2 ON c2.id = e.contact_id
  WHERE e.user_id = @user AND e.email_lc = @term`;
const EXACT = `c.seq IN (SELECT seq FROM contacts WHERE user_id = @user AND full_name_lc = @term
  UNION ${EXACT_EMAIL})`;

/** A term with `@` is an e-mail address: an exact search for it matches e-mails only. */
const isEmailTerm = (term: string): boolean => term.includes('@');

/** E3 and E4: the user's contacts matching a text, in creation order, after a cursor. */
export class ContactSearcher {
  private readonly db: Db;
  private readonly statements = new Map<string, ReturnType<Db['prepare']>>();
  private readonly seqsByName: Statement<[number, string], number>;
  private readonly seqsByEmail: Statement<[number, string], number>;
  private readonly rowBySeq: Statement<[number, number], ContactRow>;

  constructor(db: Db) {
    this.db = db;
    this.seqsByName = db
      .prepare<[number, string], number>('SELECT seq FROM contacts WHERE user_id = ? AND full_name_lc = ?')
      .pluck();
    this.seqsByEmail = db
      .prepare<[number, string], number>(
        `SELECT c.seq FROM contact_emails e JOIN contacts c ON c.id = e.contact_id
         WHERE e.user_id = ? AND e.email_lc = ?`,
      )
      .pluck();
    this.rowBySeq = db.prepare<[number, number], ContactRow>(
      'SELECT * FROM contacts WHERE seq = ? AND user_id = ?',
    );
  }

  search(userId: number, query: ContactSearch): ContactRow[] {
    const term = query.term?.trim().toLowerCase() ?? '';
    if (term !== '' && query.exact && query.hasGroups === undefined) return this.exact(userId, term, query);
    const conditions = ['c.user_id = @user', 'c.seq > @after'];
    if (term !== '')
      conditions.push(!query.exact ? SUBSTRING : isEmailTerm(term) ? `c.seq IN (${EXACT_EMAIL})` : EXACT);
    if (!query.includeArchived) conditions.push('c.is_archived = 0');
    if (query.hasGroups !== undefined) {
      const exists = 'EXISTS (SELECT 1 FROM group_memberships m WHERE m.contact_id = c.id)';
      conditions.push(query.hasGroups ? exists : `NOT ${exists}`);
    }
    const sql = `SELECT c.* FROM contacts c WHERE ${conditions.join(' AND ')} ORDER BY c.seq LIMIT @limit`;
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    const params: Record<string, unknown> = { user: userId, after: query.afterSeq, limit: query.limit };
    if (term !== '') params.term = term;
    return statement.all(params) as ContactRow[];
  }

  /**
   * An exact search (E4 `exactMatch`, the importer's one request per record) from the two indexes
   * straight to the rows: the matching seqs by e-mail and by full name, then only the rows to
   * answer. The one SQL statement for it (EXACT above) sorted whole rows through a temporary
   * B-tree and cost three times as much.
   */
  private exact(userId: number, term: string, query: ContactSearch): ContactRow[] {
    const byName = isEmailTerm(term) ? [] : this.seqsByName.all(userId, term);
    const seqs = new Set([...this.seqsByEmail.all(userId, term), ...byName]);
    const rows: ContactRow[] = [];
    for (const seq of [...seqs].sort((a, b) => a - b)) {
      if (seq <= query.afterSeq) continue;
      const row = this.rowBySeq.get(seq, userId);
      if (!row || (!query.includeArchived && row.is_archived !== 0)) continue;
      rows.push(row);
      if (rows.length >= query.limit) break;
    }
    return rows;
  }
}
