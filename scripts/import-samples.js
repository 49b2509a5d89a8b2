#!/usr/bin/env node
// `npm start`: imports every sample export into the local service (the default target) with its
// built-in pipeline, and prints each run's summary. The samples hold rejected rows on purpose, so
// a share of rejects is allowed for exit 0.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli', 'main.js');
const runs = [
  ['generic', 'samples/generic.csv', 'samples/generic.json'],
  ['address-book-csv', 'samples/address-book.csv', 'samples/address-book-legacy.csv'],
  ['mail-client-csv', 'samples/mail-client.csv'],
  ['worknet-connections', 'samples/worknet-connections.csv'],
  ['marketing-crm-csv', 'samples/marketing-crm.csv'],
  ['sales-crm-csv', 'samples/sales-crm-report.csv', 'samples/sales-crm-dataloader.csv'],
  ['plain-list', 'samples/plain-list-eu.csv'],
  ['vcard', 'samples/icloud.vcf'],
  ['generic', 'samples/people.xlsx'],
];

for (const [pipeline, ...inputs] of runs) {
  const args = [cli, 'run', pipeline, ...inputs, '--max-rejects', '25%'];
  process.stdout.write(`\n$ contact-import run ${pipeline} ${inputs.join(' ')} --max-rejects 25%\n`);
  const { status } = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root });
  if (status !== 0) process.exit(status ?? 1);
}
