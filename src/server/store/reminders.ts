import { randomUUID } from 'node:crypto';
import type { ReminderCreate, ReminderResponse, ReminderUpdate } from '../../core/schemas/reminder.js';
import { invalidBodyAt } from '../envelope.js';
import type { Db } from './schema.js';

interface ReminderRow {
  id: string;
  text: string;
  due_at_date: string;
  due_at_time: string | null;
  is_complete: number;
  recurrence: string | null;
  last_completed_at: string | null;
  next_occurrence_at: string | null;
  email_sent: number;
  push_notification_sent: number;
  created_at: string;
  updated_at: string;
}

/** What `/_local/reminders` shows: the response shape plus the flags and linked contacts. */
export interface LocalReminder extends ReminderResponse {
  email_sent: boolean;
  push_notification_sent: boolean;
  contact_ids: string[];
}

const flag = (value: boolean | undefined): number | null => (value === undefined ? null : value ? 1 : 0);

export class ReminderStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO reminders (id, user_id, text, due_at_date, due_at_time, is_complete, recurrence, created_at, updated_at)
         VALUES (@id, @user_id, @text, @due_at_date, @due_at_time, @is_complete, @recurrence, @now, @now)`,
      ),
      get: db.prepare('SELECT * FROM reminders WHERE id = ? AND user_id = ?'),
      update: db.prepare(
        `UPDATE reminders SET text = coalesce(@text, text), due_at_date = coalesce(@due_at_date, due_at_date),
           due_at_time = coalesce(@due_at_time, due_at_time), is_complete = coalesce(@is_complete, is_complete),
           recurrence = coalesce(@recurrence, recurrence),
           last_completed_at = coalesce(@last_completed_at, last_completed_at),
           next_occurrence_at = coalesce(@next_occurrence_at, next_occurrence_at),
           email_sent = coalesce(@email_sent, email_sent),
           push_notification_sent = coalesce(@push_notification_sent, push_notification_sent),
           updated_at = @now
         WHERE id = @id AND user_id = @user_id`,
      ),
      list: db.prepare('SELECT * FROM reminders WHERE user_id = ? ORDER BY seq'),
      userContact: db.prepare('SELECT 1 FROM contacts WHERE id = ? AND user_id = ?'),
      clearContacts: db.prepare('DELETE FROM reminder_contacts WHERE reminder_id = ?'),
      addContact: db.prepare(
        `INSERT OR IGNORE INTO reminder_contacts (reminder_id, contact_id, position)
         VALUES (@reminder_id, @contact_id, @position)`,
      ),
      contacts: db.prepare(
        'SELECT contact_id FROM reminder_contacts WHERE reminder_id = ? ORDER BY position',
      ),
    };
  }

  create(userId: number, input: ReminderCreate): ReminderResponse {
    const id = randomUUID();
    this.s.insert.run({
      id,
      user_id: userId,
      text: input.text,
      due_at_date: input.due_at_date,
      due_at_time: input.due_at_time ?? null,
      is_complete: input.is_complete ? 1 : 0,
      recurrence: input.recurrence ?? null,
      now: new Date().toISOString(),
    });
    this.linkContacts(userId, id, input.reminders_contacts);
    return this.response(this.s.get.get(id, userId) as ReminderRow);
  }

  /** Undefined when the reminder is not this user's. `reminders_contacts`, when sent, replaces the links. */
  update(userId: number, id: string, input: ReminderUpdate): ReminderResponse | undefined {
    const changes = this.s.update.run({
      id,
      user_id: userId,
      text: input.text ?? null,
      due_at_date: input.due_at_date ?? null,
      due_at_time: input.due_at_time ?? null,
      is_complete: flag(input.is_complete),
      recurrence: input.recurrence ?? null,
      last_completed_at: input.last_completed_at ?? null,
      next_occurrence_at: input.next_occurrence_at ?? null,
      email_sent: flag(input.email_sent),
      push_notification_sent: flag(input.push_notification_sent),
      now: new Date().toISOString(),
    }).changes;
    if (changes !== 1) return undefined;
    if (input.reminders_contacts) {
      this.s.clearContacts.run(id);
      this.linkContacts(userId, id, input.reminders_contacts);
    }
    return this.response(this.s.get.get(id, userId) as ReminderRow);
  }

  local(userId: number): LocalReminder[] {
    return (this.s.list.all(userId) as ReminderRow[]).map((row) => ({
      ...this.response(row),
      email_sent: row.email_sent === 1,
      push_notification_sent: row.push_notification_sent === 1,
      contact_ids: (this.s.contacts.all(row.id) as { contact_id: string }[]).map((c) => c.contact_id),
    }));
  }

  private linkContacts(
    userId: number,
    reminderId: string,
    links: { contact_id: string }[] | undefined,
  ): void {
    links?.forEach((link, i) => {
      if (!this.s.userContact.get(link.contact_id, userId)) {
        throw invalidBodyAt(
          `reminder.reminders_contacts.${i}.contact_id`,
          `No contact with id '${link.contact_id}' for this API key.`,
        );
      }
      // Links are only ever written onto an empty list, so the index is the position.
      this.s.addContact.run({ reminder_id: reminderId, contact_id: link.contact_id, position: i });
    });
  }

  private response(row: ReminderRow): ReminderResponse {
    return {
      id: row.id,
      text: row.text,
      due_at_date: row.due_at_date,
      due_at_time: row.due_at_time,
      is_complete: row.is_complete === 1,
      recurrence: row.recurrence,
      last_completed_at: row.last_completed_at,
      next_occurrence_at: row.next_occurrence_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}
