import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isImportError } from '../../../src/core/errors/index.js';
import { detectPipeline } from '../../../src/run/detect-pipeline.js';

const SAMPLES = path.resolve(import.meta.dirname, '../../../samples');
const VCARDS = path.resolve(import.meta.dirname, '../../../../shared/testdata/vcard');
const dir = mkdtempSync(path.join(tmpdir(), 'ci-detect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, content: string | Buffer): string => {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
};

const refusal = async (file: string): Promise<string> => {
  try {
    await detectPipeline(file);
  } catch (error) {
    if (isImportError(error) && error.code === 'pipeline_undetected') return error.message;
    throw error;
  }
  throw new Error(`detection of ${file} did not refuse`);
};

describe('detectPipeline on the samples', () => {
  it.each([
    ['address-book.csv', 'address-book-csv'],
    ['address-book-legacy.csv', 'address-book-csv'],
    ['mail-client.csv', 'mail-client-csv'],
    ['worknet-connections.csv', 'worknet-connections'],
    ['generic.csv', 'generic'],
    ['generic.json', 'generic'],
  ])('%s reads with %s, the matched columns named', async (sample, expected) => {
    const { pipeline, reason } = await detectPipeline(path.join(SAMPLES, sample));
    expect(pipeline.name).toBe(expected);
    expect(reason).toMatch(new RegExp(`^${expected}: the header of .*${sample} has its columns \\S`));
  });

  it('a .vcf file reads with the vcard built-in', async () => {
    const { pipeline, reason } = await detectPipeline(path.join(VCARDS, 'John_Doe_MS_OUTLOOK.vcf'));
    expect(pipeline.name).toBe('vcard');
    expect(reason).toContain('is a vCard file');
  });
});

describe('detectPipeline on headers spelt differently', () => {
  it('newer address-book header: lower case, BOM, shuffled, extra and missing columns', async () => {
    const header = [
      'phone 1 - value',
      '\uFEFFfirst name',
      'Last  Name',
      'Something Else',
      'e-mail 1 - label',
      'E-mail 1 - Value',
      'Labels',
      'Phone 1 - Label',
    ];
    const file = write(
      'google-odd.csv',
      `${header.join(',')}\r\n+1 555 0100,Ann,Lee,x,Home,ann@example.com,* myContacts,Mobile\r\n`,
    );
    expect((await detectPipeline(file)).pipeline.name).toBe('address-book-csv');
  });

  it('desktop mail-client header with columns dropped reads as mail-client-csv', async () => {
    const text = readFileSync(path.join(SAMPLES, 'mail-client.csv'), 'utf8');
    const [header] = text.split(/\r?\n/);
    const kept = header!
      .split(',')
      .filter((cell) => !/Middle|Suffix|Title"?$/.test(cell))
      .reverse();
    const file = write('outlook-odd.csv', `${kept.join(',')}\n`);
    expect((await detectPipeline(file)).pipeline.name).toBe('mail-client-csv');
  });

  it('semicolon-separated service field names read as generic', async () => {
    const file = write('plain.csv', 'Full Name;Email;Phone\nAnn Lee;ann@example.com;+44 20 7946 0000\n');
    expect((await detectPipeline(file)).pipeline.name).toBe('generic');
  });
});

describe('detectPipeline refuses, naming the candidates', () => {
  it('two built-ins fit equally', async () => {
    const file = write(
      'tie.csv',
      'E-mail Address,Mobile Phone,full_name,email_label\na@example.com,1,Bo Li,work\n',
    );
    const message = await refusal(file);
    expect(message).toContain('about equally');
    expect(message).toMatch(/generic \(2 columns: full_name, email_label\)/);
    expect(message).toMatch(/mail-client-csv \(2 columns: E-mail Address, Mobile Phone\)/);
  });

  it('too few known columns', async () => {
    const message = await refusal(write('thin.csv', 'First Name,Shoe Size\nAnn,38\n'));
    expect(message).toContain('no built-in pipeline fits its header well enough');
    expect(message).toMatch(/mail-client-csv \(1 column: First Name\)/);
    expect(message).toContain(
      `draft a pipeline that maps every column, check it, then run with it: contact-import init ${path.join(dir, 'thin.csv')} --out my.yaml && contact-import run my.yaml ${path.join(dir, 'thin.csv')}`,
    );
  });

  it('the init command it prints quotes a path with spaces', async () => {
    const message = await refusal(write('my export.csv', 'Shoe Size,Hat\n38,L\n'));
    expect(message).toContain(`contact-import init '${path.join(dir, 'my export.csv')}' --out my.yaml`);
  });

  it('no known column at all lists the built-ins', async () => {
    const message = await refusal(write('none.csv', 'Shoe Size,Hat\n38,L\n'));
    expect(message).toMatch(/no built-in pipeline knows any of its columns \(built-ins: .*generic/);
  });

  it('standard input is not guessed', async () => {
    expect(await refusal('-')).toContain('standard input');
  });
});
