import type { ServiceClient } from '../client/index.js';
import type { LedgerScope } from '../state/index.js';
import { contentHash } from '../state/index.js';
import type { References } from '../package/references.js';
import type { StepHook } from './steps.js';
import type { ReferenceIds } from './write-object.js';

export interface ReferenceCounts {
  groups: { created: number; existing: number };
  customFields: { created: number; existing: number };
}

interface EnsureOptions {
  client?: ServiceClient;
  scope?: LedgerScope;
  dryRun: boolean;
  runId?: string;
  onStep?: StepHook;
}

/**
 * Groups and custom field definitions are created once per name per target (E7, E9) before any
 * contact refers to them, and updated when their definition changed (E8, E10). The service has no
 * list endpoint, so "exists" means "the ledger knows it"; a dry run counts without sending.
 */
export const ensureReferences = async (
  refs: References,
  options: EnsureOptions,
): Promise<{ ids: ReferenceIds; counts: ReferenceCounts }> => {
  const { client, scope, dryRun, runId, onStep } = options;
  const ids: ReferenceIds = { groups: new Map(), customFields: new Map() };
  const counts: ReferenceCounts = {
    groups: { created: 0, existing: 0 },
    customFields: { created: 0, existing: 0 },
  };
  const knownGroups = scope?.getGroups() ?? new Map();
  const knownFields = scope?.getCustomFields() ?? new Map();

  await Promise.all(
    [...refs.groups].map(async (name) => {
      const definition = { name };
      const hash = contentHash(definition);
      const known = knownGroups.get(name);
      if (known) {
        counts.groups.existing += 1;
        ids.groups.set(name, known.id);
        if (known.hash !== hash && !dryRun && client && scope) {
          await client.updateGroup(known.id, definition);
          scope.putGroup(name, known.id, hash);
        }
        return;
      }
      counts.groups.created += 1;
      if (dryRun || !client || !scope) {
        ids.groups.set(name, `dry-run:${name}`);
        return;
      }
      // The key is the definition's hash, stable across runs: a run that crashed between this create
      // and the ledger write sends the same key again and gets the same group back, not a second one.
      const group = await client.createGroup(definition, { idempotencyKey: `group-${hash}` });
      onStep?.('group');
      scope.putGroup(name, group.id, hash);
      if (runId) scope.recordReference(runId, 'group', group.id, name);
      ids.groups.set(name, group.id);
    }),
  );

  await Promise.all(
    refs.customFields().map(async (field) => {
      const definition = {
        name: field.name,
        field_type: field.fieldType,
        ...(field.categories.length > 0
          ? { categories: field.categories.map((category) => ({ category })) }
          : {}),
      };
      const hash = contentHash(definition);
      const known = knownFields.get(field.name);
      if (known) {
        counts.customFields.existing += 1;
        ids.customFields.set(field.name, known.id);
        if (known.hash !== hash && !dryRun && client && scope) {
          await client.updateCustomField(known.id, definition);
          scope.putCustomField(field.name, known.id, hash);
        }
        return;
      }
      counts.customFields.created += 1;
      if (dryRun || !client || !scope) {
        ids.customFields.set(field.name, `dry-run:${field.name}`);
        return;
      }
      const created = await client.createCustomField(definition, { idempotencyKey: `custom-field-${hash}` });
      onStep?.('group');
      scope.putCustomField(field.name, created.id, hash);
      if (runId) scope.recordReference(runId, 'custom_field', created.id, field.name);
      ids.customFields.set(field.name, created.id);
    }),
  );
  return { ids, counts };
};
