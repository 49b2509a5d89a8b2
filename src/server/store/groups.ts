import { randomUUID } from 'node:crypto';
import type { GroupCreate, GroupResponse, GroupUpdate } from '../../core/schemas/group.js';
import { invalidBodyAt } from '../envelope.js';
import type { Db } from './schema.js';

interface GroupRow {
  seq: number;
  id: string;
  user_id: number;
  name: string;
  emoji: string | null;
  description: string | null;
  color: string | null;
  parent_id: string | null;
  created_at: string;
  updated_at: string;
}

/** What `/_local/groups` shows: the response shape plus what the response leaves out. */
export interface LocalGroup extends GroupResponse {
  emoji: string | null;
  description: string | null;
  contact_ids: string[];
}

export class GroupStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO groups (id, user_id, name, emoji, description, color, parent_id, created_at, updated_at)
         VALUES (@id, @user_id, @name, @emoji, @description, NULL, @parent_id, @now, @now)`,
      ),
      get: db.prepare('SELECT * FROM groups WHERE id = ? AND user_id = ?'),
      update: db.prepare(
        `UPDATE groups SET name = coalesce(@name, name), emoji = coalesce(@emoji, emoji),
           description = coalesce(@description, description), parent_id = coalesce(@parent_id, parent_id),
           updated_at = @now
         WHERE id = @id AND user_id = @user_id`,
      ),
      list: db.prepare('SELECT * FROM groups WHERE user_id = ? ORDER BY seq'),
      userContact: db.prepare('SELECT 1 FROM contacts WHERE id = ? AND user_id = ?'),
      addMember: db.prepare(
        `INSERT OR IGNORE INTO group_memberships (group_id, contact_id, position)
         VALUES (@group_id, @contact_id, (SELECT coalesce(max(position), -1) + 1 FROM group_memberships WHERE contact_id = @contact_id))`,
      ),
      members: db.prepare(
        `SELECT m.contact_id FROM group_memberships m JOIN contacts c ON c.id = m.contact_id
         WHERE m.group_id = ? ORDER BY c.seq`,
      ),
    };
  }

  private checkParent(userId: number, parentId: string | undefined, selfId?: string): void {
    if (parentId === undefined) return;
    if (parentId === selfId) throw invalidBodyAt('group.parent_id', 'A group cannot be its own parent.');
    if (!this.s.get.get(parentId, userId)) {
      throw invalidBodyAt('group.parent_id', `No group with id '${parentId}' for this API key.`);
    }
  }

  create(userId: number, input: GroupCreate): GroupResponse {
    this.checkParent(userId, input.parent_id);
    const id = randomUUID();
    this.s.insert.run({
      id,
      user_id: userId,
      name: input.name,
      emoji: input.emoji ?? null,
      description: input.description ?? null,
      parent_id: input.parent_id ?? null,
      now: new Date().toISOString(),
    });
    input.groups_contacts?.forEach((member, i) => {
      if (!this.s.userContact.get(member.contact_id, userId)) {
        throw invalidBodyAt(
          `group.groups_contacts.${i}.contact_id`,
          `No contact with id '${member.contact_id}' for this API key.`,
        );
      }
      this.s.addMember.run({ group_id: id, contact_id: member.contact_id });
    });
    return this.response(this.row(userId, id) as GroupRow);
  }

  /** Undefined when the group is not this user's. */
  update(userId: number, id: string, input: GroupUpdate): GroupResponse | undefined {
    if (!this.row(userId, id)) return undefined;
    this.checkParent(userId, input.parent_id, id);
    this.s.update.run({
      id,
      user_id: userId,
      name: input.name ?? null,
      emoji: input.emoji ?? null,
      description: input.description ?? null,
      parent_id: input.parent_id ?? null,
      now: new Date().toISOString(),
    });
    return this.response(this.row(userId, id) as GroupRow);
  }

  local(userId: number): LocalGroup[] {
    return (this.s.list.all(userId) as GroupRow[]).map((row) => ({
      ...this.response(row),
      emoji: row.emoji,
      description: row.description,
      contact_ids: (this.s.members.all(row.id) as { contact_id: string }[]).map((m) => m.contact_id),
    }));
  }

  private row(userId: number, id: string): GroupRow | undefined {
    return this.s.get.get(id, userId) as GroupRow | undefined;
  }

  private response(row: GroupRow): GroupResponse {
    return {
      id: row.id,
      name: row.name,
      color: row.color,
      parent_group_id: row.parent_id,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}
