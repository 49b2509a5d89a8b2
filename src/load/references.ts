import type { ServiceClient } from '../client/index.js';
import type { KnownReferences, RunJournal } from '../state/index.js';
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
  scope?: KnownReferences & RunJournal;
  dryRun: boolean;
  runId?: string;
  onStep?: StepHook;
}

type Kind = 'group' | 'custom_field';

/** One definition as sent (E7/E9 create, E8/E10 update), with its name and its content hash. */
interface Definition {
  kind: Kind;
  name: string;
  body: Record<string, unknown>;
  hash: string;
}

/**
 * Groups and custom field definitions are created once per name per target (E7, E9) before any
 * contact refers to them, and updated when their definition changed (E8, E10). The service has no
 * list endpoint, so "exists" means "the ledger knows it"; a dry run counts without sending.
 *
 * `ensure` may be called again as more records are read (a run that loads while it reads): only
 * names it has not handled yet are looked at, and a definition that grew since (an autocomplete
 * field's categories) is updated; each name is counted once.
 */
export class ReferenceSync {
  readonly ids: ReferenceIds = { groups: new Map(), customFields: new Map() };
  readonly counts: ReferenceCounts = {
    groups: { created: 0, existing: 0 },
    customFields: { created: 0, existing: 0 },
  };
  /** The hash of each definition as this run last ensured it, by kind and name. */
  private readonly handled = new Map<string, string>();

  constructor(private readonly options: EnsureOptions) {}

  async ensure(refs: References): Promise<void> {
    const wanted = [...groupDefinitions(refs), ...fieldDefinitions(refs)].filter(
      (d) => this.handled.get(`${d.kind}:${d.name}`) !== d.hash,
    );
    if (wanted.length === 0) return;
    const { scope } = this.options;
    const known = {
      group: scope?.getGroups() ?? new Map<string, { id: string; hash: string }>(),
      custom_field: scope?.getCustomFields() ?? new Map<string, { id: string; hash: string }>(),
    };
    // Groups first, then the custom fields, each kind's requests concurrently (the client limits them).
    for (const kind of ['group', 'custom_field'] as const) {
      await Promise.all(
        wanted.filter((d) => d.kind === kind).map((d) => this.ensureOne(d, known[kind].get(d.name))),
      );
    }
  }

  private async ensureOne(definition: Definition, known: { id: string; hash: string } | undefined) {
    const { client, scope, dryRun, runId, onStep } = this.options;
    const { kind, name, body, hash } = definition;
    const key = `${kind}:${name}`;
    const ids = kind === 'group' ? this.ids.groups : this.ids.customFields;
    const counts = kind === 'group' ? this.counts.groups : this.counts.customFields;
    const firstTime = !this.handled.has(key);
    this.handled.set(key, hash);
    if (known) {
      if (firstTime) counts.existing += 1;
      ids.set(name, known.id);
      if (known.hash !== hash && !dryRun && client && scope) {
        if (kind === 'group') await client.updateGroup(known.id, body as { name: string });
        else
          await client.updateCustomField(known.id, body as Parameters<ServiceClient['updateCustomField']>[1]);
        if (kind === 'group') scope.putGroup(name, known.id, hash);
        else scope.putCustomField(name, known.id, hash);
      }
      return;
    }
    counts.created += 1;
    if (dryRun || !client || !scope) {
      ids.set(name, `dry-run:${name}`);
      return;
    }
    // The key is the definition's hash, stable across runs: a run that crashed between this create
    // and the ledger write sends the same key again and gets the same definition back, not a second one.
    const created =
      kind === 'group'
        ? await client.createGroup(body as { name: string }, { idempotencyKey: `group-${hash}` })
        : await client.createCustomField(body as Parameters<ServiceClient['createCustomField']>[0], {
            idempotencyKey: `custom-field-${hash}`,
          });
    onStep?.('group');
    if (kind === 'group') scope.putGroup(name, created.id, hash);
    else scope.putCustomField(name, created.id, hash);
    if (runId) scope.recordReference(runId, kind, created.id, name);
    ids.set(name, created.id);
  }
}

const groupDefinitions = (refs: References): Definition[] =>
  [...refs.groups].map((name) => {
    const body = { name };
    return { kind: 'group', name, body, hash: contentHash(body) };
  });

const fieldDefinitions = (refs: References): Definition[] =>
  refs.customFields().map((field) => {
    const body = {
      name: field.name,
      field_type: field.fieldType,
      ...(field.categories.length > 0
        ? { categories: field.categories.map((category) => ({ category })) }
        : {}),
    };
    return { kind: 'custom_field', name: field.name, body, hash: contentHash(body) };
  });

/** The references of every record staged, ensured once (a run that read everything first). */
export const ensureReferences = async (
  refs: References,
  options: EnsureOptions,
): Promise<{ ids: ReferenceIds; counts: ReferenceCounts; sync: ReferenceSync }> => {
  const sync = new ReferenceSync(options);
  await sync.ensure(refs);
  return { ids: sync.ids, counts: sync.counts, sync };
};
