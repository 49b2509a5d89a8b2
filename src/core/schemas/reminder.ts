import { z } from 'zod';
import { RECURRENCES } from './limits.js';
import { dateTime, uuid } from './primitives.js';

const reminderContactSchema = z.strictObject({ contact_id: uuid, contacts: z.unknown().optional() });

/** E5: `{reminder: {...}}` without the update-only fields. */
export const reminderCreateSchema = z.strictObject({
  text: z.string().min(1),
  due_at_date: dateTime,
  due_at_time: dateTime.optional(),
  is_complete: z.boolean().optional(),
  recurrence: z.enum(RECURRENCES).optional(),
  reminders_contacts: z.array(reminderContactSchema).optional(),
});

/** E6: any reminder write field, the update-only ones included; all optional. */
export const reminderUpdateSchema = z.strictObject({
  text: z.string().min(1).optional(),
  due_at_date: dateTime.optional(),
  due_at_time: dateTime.optional(),
  is_complete: z.boolean().optional(),
  recurrence: z.enum(RECURRENCES).optional(),
  reminders_contacts: z.array(reminderContactSchema).optional(),
  last_completed_at: dateTime.optional(),
  next_occurrence_at: dateTime.optional(),
  email_sent: z.boolean().optional(),
  push_notification_sent: z.boolean().optional(),
});

export const reminderCreateBodySchema = z.strictObject({ reminder: reminderCreateSchema });
export const reminderUpdateBodySchema = z.strictObject({ reminder: reminderUpdateSchema });

export const reminderResponseSchema = z.object({
  id: uuid,
  text: z.string(),
  due_at_date: z.string(),
  due_at_time: z.string().nullable(),
  is_complete: z.boolean(),
  recurrence: z.string().nullable(),
  last_completed_at: z.string().nullable(),
  next_occurrence_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export type ReminderCreate = z.infer<typeof reminderCreateSchema>;
export type ReminderUpdate = z.infer<typeof reminderUpdateSchema>;
export type ReminderResponse = z.infer<typeof reminderResponseSchema>;
