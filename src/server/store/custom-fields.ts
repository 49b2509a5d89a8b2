import { randomUUID } from 'node:crypto';
import type {
  CustomFieldCreate,
  CustomFieldResponse,
  CustomFieldUpdate,
} from '../../core/schemas/custom-field.js';
import type { Db } from './schema.js';

interface CustomFieldRow {
  id: string;
  name: string;
  field_type: string;
  categories: string;
  created_at: string;
  updated_at: string;
}

export class CustomFieldStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO custom_fields (id, user_id, name, field_type, categories, created_at, updated_at)
         VALUES (@id, @user_id, @name, @field_type, @categories, @now, @now)`,
      ),
      get: db.prepare('SELECT * FROM custom_fields WHERE id = ? AND user_id = ?'),
      update: db.prepare(
        `UPDATE custom_fields SET name = coalesce(@name, name), field_type = coalesce(@field_type, field_type),
           categories = coalesce(@categories, categories), updated_at = @now
         WHERE id = @id AND user_id = @user_id`,
      ),
      list: db.prepare('SELECT * FROM custom_fields WHERE user_id = ? ORDER BY seq'),
    };
  }

  create(userId: number, input: CustomFieldCreate): CustomFieldResponse {
    const id = randomUUID();
    this.s.insert.run({
      id,
      user_id: userId,
      name: input.name,
      field_type: input.field_type ?? 'input',
      categories: JSON.stringify(input.categories ?? []),
      now: new Date().toISOString(),
    });
    return this.response(this.s.get.get(id, userId) as CustomFieldRow);
  }

  /** Undefined when the definition is not this user's. */
  update(userId: number, id: string, input: CustomFieldUpdate): CustomFieldResponse | undefined {
    const changes = this.s.update.run({
      id,
      user_id: userId,
      name: input.name ?? null,
      field_type: input.field_type ?? null,
      categories: input.categories ? JSON.stringify(input.categories) : null,
      now: new Date().toISOString(),
    }).changes;
    return changes === 1 ? this.response(this.s.get.get(id, userId) as CustomFieldRow) : undefined;
  }

  local(userId: number): CustomFieldResponse[] {
    return (this.s.list.all(userId) as CustomFieldRow[]).map((row) => this.response(row));
  }

  private response(row: CustomFieldRow): CustomFieldResponse {
    return {
      id: row.id,
      name: row.name,
      field_type: row.field_type,
      categories: JSON.parse(row.categories) as { category: string }[],
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}
