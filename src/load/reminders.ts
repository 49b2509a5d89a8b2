import type { ServiceClient } from '../client/index.js';
import type { Recurrence } from '../core/schemas/index.js';
import type { KnownReminders } from '../state/index.js';
import { contentHash } from '../state/index.js';
import type { Planned } from './resolve.js';

/**
 * Reminders of the pipeline's optional section, after their contacts exist: created with E5 and
 * linked by `reminders_contacts`; on a rerun, changed ones are updated with E6. A reminder is
 * identified by its record's identity key and its place in the record.
 */
export const syncReminders = async (
  items: Planned[],
  ctx: { client?: ServiceClient; scope?: KnownReminders; dryRun: boolean },
): Promise<{ created: number; updated: number }> => {
  const counts = { created: 0, updated: 0 };
  const wanted = items.flatMap((p) =>
    p.record.reminders.map((reminder, index) => ({
      key: `${p.record.key}#${index}`,
      reminder,
      contactId: p.contactId,
    })),
  );
  if (wanted.length === 0) return counts;
  const known = ctx.scope?.getReminders(wanted.map((w) => w.key)) ?? new Map();
  await Promise.all(
    wanted.map(async ({ key, reminder, contactId }) => {
      const body = {
        text: reminder.text,
        due_at_date: reminder.due_at_date,
        ...(reminder.recurrence ? { recurrence: reminder.recurrence as Recurrence } : {}),
        ...(contactId ? { reminders_contacts: [{ contact_id: contactId }] } : {}),
      };
      const hash = contentHash(body);
      const entry = known.get(key);
      if (entry?.hash === hash) return;
      if (entry) counts.updated += 1;
      else counts.created += 1;
      if (ctx.dryRun || !ctx.client || !ctx.scope) return;
      if (entry) {
        await ctx.client.updateReminder(entry.id, body);
        ctx.scope.putReminder(key, entry.id, hash);
      } else {
        // Stable across runs (identity key + body): a crash before putReminder cannot create it twice.
        const created = await ctx.client.createReminder(body, {
          idempotencyKey: `reminder-${contentHash({ key, hash })}`,
        });
        ctx.scope.putReminder(key, created.id, hash);
      }
    }),
  );
  return counts;
};
