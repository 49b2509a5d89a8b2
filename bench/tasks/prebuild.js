/**
 * Builds the contact write objects of a file the way the pipeline would (map, normalize, first
 * identity wins), and creates the groups and custom fields they refer to: the untimed preparation
 * of the baseline loaders, so they time nothing but requests.
 */
import { dist } from './common.js';

const { openSource } = await import(dist('readers/index.js'));
const { loadPipeline, createRowMapper } = await import(dist('mapping/index.js'));
const { normalizeRecord } = await import(dist('normalize/normalize-record.js'));
const { toWrite } = await import(dist('load/write-object.js'));
const { References } = await import(dist('package/references.js'));
const { createClient } = await import(dist('client/index.js'));

export const prebuild = async ({ file, pipelineName = 'generic', url, apiKey }) => {
  const pipeline = await loadPipeline(pipelineName);
  const source = await openSource(file, pipeline.dialect);
  const mapper = createRowMapper(pipeline, source.header, file);
  const records = new Map();
  const references = new References();
  for await (const item of source.items) {
    if (item.kind !== 'row') continue;
    const outcome = normalizeRecord(mapper.map(item), {
      file,
      row: item.row,
      raw: item.raw,
      input: 0,
      region: pipeline.region,
      dateFormat: pipeline.dateFormat,
      strict: false,
      constants: pipeline.constants,
    });
    if (!outcome.ok || records.has(outcome.record.key)) continue;
    records.set(outcome.record.key, outcome.record);
    references.collect(outcome.record);
  }
  const client = createClient({ baseUrl: url, apiKey });
  const ids = { groups: new Map(), customFields: new Map() };
  for (const name of references.groups) ids.groups.set(name, (await client.createGroup({ name })).id);
  for (const field of references.customFields()) {
    const created = await client.createCustomField({
      name: field.name,
      field_type: field.fieldType,
      ...(field.fieldType === 'autocomplete' ? { categories: field.categories } : {}),
    });
    ids.customFields.set(field.name, created.id);
  }
  await client.close();
  return [...records.values()].map((record) => toWrite(record, ids).write);
};
