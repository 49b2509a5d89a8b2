import { describe, expect, it } from 'vitest';
import { createRowMapper, loadPipeline, parsePipeline, unusedColumns } from '../../../src/mapping/index.js';
import type { SourceRow } from '../../../src/readers/types.js';

/** A CSV row as the reader yields it: values keyed by header name, missing cells as ''. */
const csvRow = (header: string[], cells: Record<string, string>, row = 1): SourceRow => {
  for (const name of Object.keys(cells))
    if (!header.includes(name)) throw new Error(`test row names ${name}, not in header`);
  return {
    kind: 'row',
    file: 'in.csv',
    row,
    line: row + 1,
    raw: '',
    values: Object.fromEntries(header.map((h) => [h, cells[h] ?? ''])),
  };
};
const jsonRow = (values: Record<string, unknown>): SourceRow => ({
  kind: 'row',
  file: 'in.json',
  row: 1,
  line: 2,
  raw: '',
  values,
});

const ADDRESS_BOOK_NEW =
  'First Name,Middle Name,Last Name,Phonetic First Name,Phonetic Middle Name,Phonetic Last Name,Name Prefix,Name Suffix,Nickname,File As,Organization Name,Organization Title,Organization Department,Birthday,Notes,Photo,Labels,E-mail 1 - Label,E-mail 1 - Value,E-mail 2 - Label,E-mail 2 - Value,Phone 1 - Label,Phone 1 - Value,Phone 2 - Label,Phone 2 - Value,Website 1 - Label,Website 1 - Value'.split(
    ',',
  );
const ADDRESS_BOOK_OLD =
  'Name,Given Name,Additional Name,Family Name,Yomi Name,Given Name Yomi,Additional Name Yomi,Family Name Yomi,Name Prefix,Name Suffix,Initials,Nickname,Short Name,Maiden Name,Birthday,Gender,Location,Billing Information,Directory Server,Mileage,Occupation,Hobby,Sensitivity,Priority,Subject,Notes,Language,Photo,Group Membership,E-mail 1 - Type,E-mail 1 - Value,E-mail 2 - Type,E-mail 2 - Value,Phone 1 - Type,Phone 1 - Value,Phone 2 - Type,Phone 2 - Value,Organization 1 - Type,Organization 1 - Name,Organization 1 - Yomi Name,Organization 1 - Title,Organization 1 - Department,Organization 1 - Symbol,Organization 1 - Location,Organization 1 - Job Description,Website 1 - Type,Website 1 - Value'.split(
    ',',
  );
const MAIL_WEB =
  "First Name,Middle Name,Last Name,Title,Suffix,Nickname,Given Yomi,Surname Yomi,E-mail Address,E-mail 2 Address,E-mail 3 Address,Home Phone,Home Phone 2,Business Phone,Business Phone 2,Mobile Phone,Car Phone,Other Phone,Primary Phone,Pager,Business Fax,Home Fax,Other Fax,Company Main Phone,Callback,Radio Phone,Telex,TTY/TDD Phone,IMAddress,Job Title,Department,Company,Office Location,Manager's Name,Assistant's Name,Assistant's Phone,Company Yomi,Business Street,Business City,Business State,Business Postal Code,Business Country/Region,Home Street,Home City,Home State,Home Postal Code,Home Country/Region,Other Street,Other City,Other State,Other Postal Code,Other Country/Region,Personal Web Page,Spouse,Schools,Hobby,Location,Web Page,Birthday,Anniversary,Notes,Categories".split(
    ',',
  );
const WORKNET = 'First Name,Last Name,URL,Email Address,Company,Position,Connected On'.split(',');

describe('address-book-csv', () => {
  it('maps the newer export: Label families, ::: splitting, system labels dropped, starred', async () => {
    const mapper = createRowMapper(await loadPipeline('address-book-csv'), ADDRESS_BOOK_NEW, 'in.csv');
    expect(mapper.headerIssues).toEqual([]);
    const draft = mapper.map(
      csvRow(ADDRESS_BOOK_NEW, {
        'First Name': 'María',
        'Last Name': 'García',
        'Name Prefix': 'Dr.',
        'Organization Name': 'Acme, Inc.',
        'Organization Title': 'CTO',
        Birthday: '--12-24',
        Labels: '* myContacts ::: * starred ::: Friends ::: * Coworkers',
        'E-mail 1 - Label': '* Work',
        'E-mail 1 - Value': 'maria@acme.example ::: m.garcia@acme.example',
        'E-mail 2 - Label': 'Home',
        'E-mail 2 - Value': 'maria@home.example',
        'Phone 1 - Label': 'Mobile',
        'Phone 1 - Value': '+34 612 345 678',
        'Phone 2 - Value': '(415) 555-2671',
        'Website 1 - Value': 'acme.example',
      }),
    );
    expect(draft.name).toEqual({
      first: { value: 'María', field: 'First Name' },
      last: { value: 'García', field: 'Last Name' },
      prefix: { value: 'Dr.', field: 'Name Prefix' },
    });
    expect(draft.emails).toEqual([
      { value: 'maria@acme.example', field: 'E-mail 1 - Value', label: '* Work' },
      { value: 'm.garcia@acme.example', field: 'E-mail 1 - Value', label: '* Work' },
      { value: 'maria@home.example', field: 'E-mail 2 - Value', label: 'Home' },
    ]);
    expect(draft.phones).toEqual([
      { value: '+34 612 345 678', field: 'Phone 1 - Value', label: 'Mobile' },
      { value: '(415) 555-2671', field: 'Phone 2 - Value' },
    ]);
    expect(draft.groups).toEqual([
      { value: 'Friends', field: 'Labels' },
      { value: 'Coworkers', field: 'Labels' },
    ]);
    expect(draft.fields).toEqual({
      company: { value: 'Acme, Inc.', field: 'Organization Name' },
      job_title: { value: 'CTO', field: 'Organization Title' },
      birthday: { value: '--12-24', field: 'Birthday' },
      website: { value: 'acme.example', field: 'Website 1 - Value' },
      starred: { value: true, field: 'Labels' },
    });
  });

  it('maps the older export: Type families, Group Membership, Organization 1 columns', async () => {
    const mapper = createRowMapper(await loadPipeline('address-book-csv'), ADDRESS_BOOK_OLD, 'in.csv');
    expect(mapper.headerIssues).toEqual([]);
    const draft = mapper.map(
      csvRow(ADDRESS_BOOK_OLD, {
        Name: 'Jürgen Weiß',
        'Given Name': 'Jürgen',
        'Family Name': 'Weiß',
        'Group Membership': '* myContacts ::: Golf',
        'E-mail 1 - Type': '* Home',
        'E-mail 1 - Value': 'jw@example.de',
        'Phone 1 - Type': 'Work',
        'Phone 1 - Value': '+49 89 1234567',
        'Organization 1 - Name': 'Weiß AG',
        'Organization 1 - Title': 'Owner',
        Notes: 'Line one, and\nline two',
      }),
    );
    expect(draft.name.full).toEqual({ value: 'Jürgen Weiß', field: 'Name' });
    expect(draft.name.first?.field).toBe('Given Name');
    expect(draft.emails).toEqual([{ value: 'jw@example.de', field: 'E-mail 1 - Value', label: '* Home' }]);
    expect(draft.phones).toEqual([{ value: '+49 89 1234567', field: 'Phone 1 - Value', label: 'Work' }]);
    expect(draft.groups).toEqual([{ value: 'Golf', field: 'Group Membership' }]);
    expect(draft.fields.company).toEqual({ value: 'Weiß AG', field: 'Organization 1 - Name' });
    expect(draft.fields.description).toEqual({ value: 'Line one, and\nline two', field: 'Notes' });
    expect(draft.fields.starred).toBeUndefined();
  });
});

describe('mail-client-csv', () => {
  it('maps the shorter web export: phones labelled by column, Categories split on ;, 0/0/00 is empty', async () => {
    const mapper = createRowMapper(await loadPipeline('mail-client-csv'), MAIL_WEB, 'in.csv');
    expect(mapper.headerIssues).toEqual([]);
    const draft = mapper.map(
      csvRow(MAIL_WEB, {
        'First Name': 'John',
        'Last Name': 'Public',
        Title: 'Mr.',
        Suffix: 'Jr.',
        'E-mail Address': 'john@example.com',
        'E-mail 2 Address': 'jp@example.org',
        'Mobile Phone': '+1 206 555 0199',
        'Business Phone': '(206) 555-0100',
        'Home Phone': '206.555.0142',
        Company: 'Public, Inc.',
        'Job Title': 'President',
        Birthday: '0/0/00',
        Anniversary: '0/0/00',
        Categories: 'Clients;VIP',
        'Web Page': 'public.example',
      }),
    );
    expect(draft.name.prefix?.value).toBe('Mr.');
    expect(draft.name.suffix?.value).toBe('Jr.');
    expect(draft.emails.map((e) => [e.value, e.field])).toEqual([
      ['john@example.com', 'E-mail Address'],
      ['jp@example.org', 'E-mail 2 Address'],
    ]);
    expect(draft.phones).toEqual([
      { value: '+1 206 555 0199', field: 'Mobile Phone', label: 'mobile' },
      { value: '(206) 555-0100', field: 'Business Phone', label: 'work' },
      { value: '206.555.0142', field: 'Home Phone', label: 'home' },
    ]);
    expect(draft.groups.map((g) => g.value)).toEqual(['Clients', 'VIP']);
    expect(draft.fields.birthday).toBeUndefined();
    expect(draft.fields.website).toEqual({ value: 'public.example', field: 'Web Page' });
  });
});

describe('worknet-connections', () => {
  it('maps URL to worknet and Connected On to a datepicker custom field with its date format', async () => {
    const pipeline = await loadPipeline('worknet-connections');
    const mapper = createRowMapper(pipeline, WORKNET, 'in.csv');
    expect(mapper.headerIssues).toEqual([]);
    const draft = mapper.map(
      csvRow(WORKNET, {
        'First Name': 'Ana',
        'Last Name': 'Souza',
        URL: 'https://www.worknet.example/in/ana',
        'Email Address': '',
        Company: 'Banco',
        Position: 'Analyst',
        'Connected On': '22 Dec 2025',
      }),
    );
    expect(draft.emails).toEqual([]);
    expect(draft.fields).toEqual({
      company: { value: 'Banco', field: 'Company' },
      job_title: { value: 'Analyst', field: 'Position' },
      worknet: { value: 'https://www.worknet.example/in/ana', field: 'URL' },
    });
    expect(draft.customFields).toEqual([
      {
        name: 'Connected On',
        value: '22 Dec 2025',
        field: 'Connected On',
        fieldType: 'datepicker',
        dateFormat: 'D MMM YYYY',
      },
    ]);
  });

  it('warns once per missing column, on row 0, when the pipeline warns about missing columns', async () => {
    const header = WORKNET.filter((c) => c !== 'Position');
    const mapper = createRowMapper(await loadPipeline('worknet-connections'), header, 'in.csv');
    expect(mapper.headerIssues).toEqual([
      expect.objectContaining({
        file: 'in.csv',
        row: 0,
        severity: 'warning',
        stage: 'map',
        field: 'Position',
        code: 'unknown_column',
        message: expect.stringContaining('fields.job_title'),
      }),
    ]);
  });

  it('warns once when no mapped column matches (wrong pipeline), even if missing columns are ignored', async () => {
    const mapper = createRowMapper(
      await loadPipeline('address-book-csv'),
      WORKNET.map((c) => `X ${c}`),
      'in.csv',
    );
    expect(mapper.headerIssues).toHaveLength(1);
    expect(mapper.headerIssues[0]).toMatchObject({
      field: '',
      code: 'unknown_column',
      message: expect.stringContaining('right pipeline'),
    });
  });
});

describe('generic', () => {
  const HEADER = [
    'full_name',
    'email',
    'email_label',
    'email_2',
    'emails',
    'phone',
    'phones',
    'starred',
    'groups',
    'custom.Favorite Color',
    'reminder',
    'reminder_due',
    'reminder_recurrence',
    'website',
  ];

  it('maps CSV columns named like the write fields, numbered and multi-value columns, custom.* and reminders', async () => {
    const mapper = createRowMapper(await loadPipeline('generic'), HEADER, 'in.csv');
    expect(mapper.headerIssues).toEqual([]);
    const draft = mapper.map(
      csvRow(HEADER, {
        full_name: 'Ada Lovelace',
        email: 'ada@example.com',
        email_label: 'work',
        email_2: 'ada2@example.com',
        emails: 'a@x.example; b@x.example',
        phone: '(415) 555-2671',
        phones: '+44 20 7946 0958;',
        starred: 'yes',
        groups: 'Friends;Math Club',
        'custom.Favorite Color': 'green',
        reminder: 'Call',
        reminder_due: '2026-03-01',
        reminder_recurrence: 'monthly',
      }),
    );
    expect(draft.emails).toEqual([
      { value: 'ada@example.com', field: 'email', label: 'work' },
      { value: 'ada2@example.com', field: 'email_2' },
      { value: 'a@x.example', field: 'emails' },
      { value: 'b@x.example', field: 'emails' },
    ]);
    expect(draft.phones.map((p) => p.value)).toEqual(['(415) 555-2671', '+44 20 7946 0958']);
    expect(draft.fields.starred).toEqual({ value: 'yes', field: 'starred' }); // text: the normalize stage reads yes/no
    expect(draft.fields.website).toBeUndefined();
    expect(draft.groups.map((g) => g.value)).toEqual(['Friends', 'Math Club']);
    expect(draft.customFields).toEqual([
      { name: 'Favorite Color', value: 'green', field: 'custom.Favorite Color', fieldType: 'input' },
    ]);
    expect(draft.reminders).toEqual([
      {
        text: { value: 'Call', field: 'reminder' },
        due: { value: '2026-03-01', field: 'reminder_due' },
        recurrence: { value: 'monthly', field: 'reminder_recurrence' },
      },
    ]);
  });

  it('maps JSON objects in the service write shape', async () => {
    const mapper = createRowMapper(await loadPipeline('generic'), undefined, 'in.json');
    expect(mapper.headerIssues).toEqual([]);
    const draft = mapper.map(
      jsonRow({
        full_name: 'Grace Hopper',
        starred: true,
        birthday_year: 1986,
        email_3: 'g3@example.com',
        contact_emails: [{ email: 'grace@example.com', label: 'work' }, { email: '' }, 'plain@example.com'],
        contact_phone_numbers: [{ phone_number: 4155550190 }],
        groups: ['Friends', 'Pioneers'],
        custom_fields: { 'Favorite Color': 'navy', Empty: '' },
        reminders: [
          { text: 'Card', due_at_date: '2026-12-01', recurrence: 'yearly' },
          { due_at_date: '2026-01-01' },
        ],
      }),
    );
    expect(draft.emails).toEqual([
      { value: 'g3@example.com', field: 'email_3' },
      { value: 'grace@example.com', field: 'contact_emails[0].email', label: 'work' },
      { value: 'plain@example.com', field: 'contact_emails[2]' },
    ]);
    expect(draft.phones).toEqual([{ value: '4155550190', field: 'contact_phone_numbers[0].phone_number' }]);
    expect(draft.fields.starred).toEqual({ value: true, field: 'starred' });
    expect(draft.fields.birthday_year).toEqual({ value: 1986, field: 'birthday_year' });
    expect(draft.groups).toEqual([
      { value: 'Friends', field: 'groups[0]' },
      { value: 'Pioneers', field: 'groups[1]' },
    ]);
    expect(draft.customFields).toEqual([
      { name: 'Favorite Color', value: 'navy', field: 'custom_fields.Favorite Color', fieldType: 'input' },
    ]);
    expect(draft.reminders).toEqual([
      {
        text: { value: 'Card', field: 'reminders[0].text' },
        due: { value: '2026-12-01', field: 'reminders[0].due_at_date' },
        recurrence: { value: 'yearly', field: 'reminders[0].recurrence' },
      },
    ]);
  });
});

describe('pipeline options', () => {
  it('key columns fill DraftContact.key; a missing key column is always warned about', () => {
    const pipeline = parsePipeline(
      'source:\n  missing_columns: ignore\nkey: [Id, Region]\nname_parts:\n  full: Name\nrequired: [Name, Mail]\n',
      '/tmp/p.yaml',
    );
    const header = ['Id', 'Name'];
    const mapper = createRowMapper(pipeline, header, 'in.csv');
    expect(mapper.headerIssues.map((i) => i.field)).toEqual(['Region', 'Mail']);
    expect(mapper.map(csvRow(header, { Id: '42', Name: 'X' })).key).toEqual(['42', '']);
    expect(mapper.map(csvRow(header, { Name: 'X' })).key).toBeUndefined();
  });

  it('source_id fills DraftContact.sourceId, namespaced by the pipeline; an empty cell none', async () => {
    const pipeline = await loadPipeline('sales-crm-csv');
    const header = ['ID', 'FIRSTNAME', 'EMAIL'];
    const mapper = createRowMapper(pipeline, header, 'in.csv');
    expect(mapper.map(csvRow(header, { ID: ' 0035g00000XyZ01AAB ', FIRSTNAME: 'Ann' })).sourceId).toBe(
      'sales-crm-csv:0035g00000XyZ01AAB',
    );
    expect(mapper.map(csvRow(header, { FIRSTNAME: 'Ann' })).sourceId).toBeUndefined();
    // A lead report's id is read (as the source id), so it is no column left unused.
    expect(unusedColumns(pipeline, ['Lead ID', 'First Name', 'Email', 'Rating']).columns).toEqual(['Rating']);
  });

  it('suggests for each unused column the missing pipeline column it is a typo of, or that holds it', async () => {
    const pipeline = await loadPipeline('generic');
    const header = ['name', 'emial', 'compnay', 'Notes', 'e-mail', 'x'.repeat(20), 'ful_name'];
    expect(unusedColumns(pipeline, header)).toEqual({
      columns: header,
      nearest: {
        name: 'full_name',
        emial: 'email',
        compnay: 'company',
        'e-mail': 'email',
        ful_name: 'full_name',
      },
    });
  });

  it('a per-column separator overrides the source one; false keeps the cell whole', () => {
    const pipeline = parsePipeline(
      'source:\n  multi_value_separator: ","\nphones:\n  - column: Phones\n  - column: Fax\n    separator: false\n    label: fax\ngroups:\n  - column: Tags\n    separator: "|"\n',
      '/tmp/p.yaml',
    );
    const header = ['Phones', 'Fax', 'Tags'];
    const draft = createRowMapper(pipeline, header, 'in.csv').map(
      csvRow(header, { Phones: '1, 2', Fax: '3,4', Tags: 'a|b, c' }),
    );
    expect(draft.phones.map((p) => p.value)).toEqual(['1', '2', '3,4']);
    expect(draft.phones[2]?.label).toBe('fax');
    expect(draft.groups.map((g) => g.value)).toEqual(['a', 'b, c']);
  });
});

describe('headers spelt otherwise than the pipeline (the rule detection uses)', () => {
  it('maps an upper-case, lower-case or underscored header as the named columns', async () => {
    const header = [
      'ID',
      'FIRST_NAME',
      'last name',
      'EMAIL',
      'e-mail 2 - value',
      'phone 1 - value',
      'LABELS',
    ];
    const mapper = createRowMapper(await loadPipeline('address-book-csv'), header, 'in.csv');
    expect(mapper.headerIssues).toEqual([]);
    const draft = mapper.map(
      csvRow(header, {
        FIRST_NAME: 'Ann',
        'last name': 'Lee',
        'e-mail 2 - value': 'ann@example.com',
        'phone 1 - value': '+1 415 555 0100',
        LABELS: 'Friends',
      }),
    );
    expect(draft.name).toEqual({
      first: { value: 'Ann', field: 'FIRST_NAME' },
      last: { value: 'Lee', field: 'last name' },
    });
    expect(draft.emails).toEqual([{ value: 'ann@example.com', field: 'e-mail 2 - value' }]);
    expect(draft.phones).toEqual([{ value: '+1 415 555 0100', field: 'phone 1 - value' }]);
    expect(draft.groups).toEqual([{ value: 'Friends', field: 'LABELS' }]);
  });

  it('maps JSON keys spelt otherwise (Email, First Name) for generic', async () => {
    const mapper = createRowMapper(await loadPipeline('generic'), undefined, 'in.json');
    const draft = mapper.map(
      jsonRow({ 'First Name': 'Ann', Email: 'ann@example.com', PHONE: '+1 415 555 0100' }),
    );
    expect(draft.name.first).toEqual({ value: 'Ann', field: 'First Name' });
    expect(draft.emails).toEqual([{ value: 'ann@example.com', field: 'Email' }]);
    expect(draft.phones).toEqual([{ value: '+1 415 555 0100', field: 'PHONE' }]);
  });
});
