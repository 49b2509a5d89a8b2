/**
 * What each file of ../shared/testdata/vcard/ becomes with the `vcard` built-in, checked by hand
 * against the file (docs/vcard.md "The test suite, file by file" says why where it differs).
 * A contact is pinned as stored: names, "e-mail label", "phone label", birthday, groups, and the
 * custom fields and address count where the card has them.
 */
export interface ExpectedContact {
  full: string | null;
  first: string | null;
  last: string | null;
  emails: string[];
  phones: string[];
  birthday?: string;
  birthdayYear?: number;
  groups?: string[];
  company?: string;
  custom?: string[];
  addresses?: number;
}

export interface ExpectedFile {
  file: string;
  read: number;
  rejected: number;
  /** Issue codes of the file with their counts (warnings and the rejecting errors). */
  issues: Record<string, number>;
  photos: number;
  contacts: ExpectedContact[];
}

const JOHN = { full: 'Mr. John Richter James Doe Sr.', first: 'John', last: 'Doe' };

export const EXPECTED: ExpectedFile[] = [
  {
    file: 'John_Doe_ANDROID.vcf',
    read: 6,
    rejected: 1,
    issues: { invalid_phone: 8, invalid_email: 1, invalid_encoding: 1 },
    photos: 1,
    contacts: [
      { full: null, first: null, last: null, emails: ['john.doe@company.com other'], phones: [] },
      { full: null, first: null, last: null, emails: ['jane.doe@company.com other'], phones: [] },
      { full: 'Ñ Ñ Ñ Ñ Ñ', first: null, last: 'Ñ Ñ Ñ Ñ', emails: [], phones: [] },
      {
        full: 'Ñ Ñ Ñ Ñ Ñ Ñ Ñ Ñ Ñ Ñ Ñ',
        first: null,
        last: 'Ñ Ñ Ñ Ñ Ñ Ñ Ñ Ñ Ñ Ñ Ñ',
        emails: [],
        phones: [],
      },
      {
        full: 'Ñ Ñ Ñ Ñ',
        first: 'Ñ Ñ Ñ',
        last: 'Ñ Ñ',
        emails: ['bob@company.com work'],
        phones: [],
        company: 'ÑÑÑÑÑÑÑÑÑÑÑÑ',
      },
    ],
  },
  {
    file: 'John_Doe_BLACK_BERRY.vcf',
    read: 1,
    rejected: 0,
    issues: { invalid_phone: 1 },
    photos: 1,
    contacts: [
      { full: 'John Doe', first: 'john', last: 'Doe', emails: [], phones: [], company: 'Acme Solutions' },
    ],
  },
  {
    file: 'John_Doe_EVOLUTION.vcf',
    read: 1,
    rejected: 0,
    issues: {},
    photos: 0,
    contacts: [
      {
        full: 'Mr. John Richter, James Doe Sr.',
        first: 'John',
        last: 'Doe',
        emails: ['john.doe@ibm.com work'],
        phones: ['+1 905 666 1234 mobile', '+1 905 555 1234 work'],
        birthday: '1980-03-22',
        birthdayYear: 1980,
        groups: ['VIP'],
        company: 'IBM',
        custom: ['Department=Accounting, Dungeon', 'Nickname=Johny'],
        addresses: 1,
      },
    ],
  },
  {
    file: 'John_Doe_GMAIL.vcf',
    read: 1,
    rejected: 0,
    issues: {},
    photos: 0,
    contacts: [
      {
        full: 'Mr. John Richter, James Doe Sr.',
        first: 'John',
        last: 'Doe',
        emails: ['john.doe@ibm.com home'],
        phones: ['+1 905 555 1234 mobile', '+1 905 666 1234 home'],
        birthday: '1980-03-22',
        birthdayYear: 1980,
        company: 'IBM',
        addresses: 1,
      },
    ],
  },
  {
    file: 'John_Doe_IPHONE.vcf',
    read: 1,
    rejected: 0,
    issues: { invalid_phone: 1 },
    photos: 1,
    contacts: [
      {
        ...JOHN,
        emails: ['john.doe@ibm.com other'],
        phones: [
          '+1 905 555 1234 mobile',
          '+1 905 666 1234 home',
          '+1 905 777 1234 work',
          '+1 905 888 1234 fax',
          '+1 905 999 1234 fax',
          '+1 905 222 1234 other',
        ],
        birthday: '2012-06-06',
        birthdayYear: 2012,
        company: 'IBM',
        custom: ['Department=Accounting', 'Nickname=Johny'],
        addresses: 2,
      },
    ],
  },
  {
    file: 'John_Doe_LOTUS_NOTES.vcf',
    read: 1,
    rejected: 0,
    issues: { invalid_phone: 2 },
    photos: 1,
    contacts: [
      {
        full: 'Mr. Doe John I Johny',
        first: 'John',
        last: 'Doe',
        emails: ['john.doe@ibm.com work', 'billy_bob@gmail.com work'],
        phones: [],
        birthday: '1980-05-21',
        birthdayYear: 1980,
        company: 'IBM',
        custom: ['Department=SUN', 'Nickname=Johny,JayJay'],
        addresses: 1,
      },
    ],
  },
  {
    file: 'John_Doe_MAC_ADDRESS_BOOK.vcf',
    read: 1,
    rejected: 0,
    issues: { invalid_phone: 1 },
    photos: 1,
    contacts: [
      {
        full: 'Mr. John Richter,James Doe Sr.',
        first: 'John',
        last: 'Doe',
        emails: ['john.doe@ibm.com work'],
        phones: [
          '+1 905 777 1234 work',
          '+1 905 666 1234 home',
          '+1 905 555 1234 mobile',
          '+1 905 888 1234 fax',
          '+1 905 999 1234 fax',
          '+1 905 222 1234 other',
        ],
        birthday: '2012-06-06',
        birthdayYear: 2012,
        company: 'IBM',
        custom: ['Department=Accounting', 'Nickname=Johny'],
        addresses: 2,
      },
    ],
  },
  {
    file: 'John_Doe_MS_OUTLOOK.vcf',
    read: 1,
    rejected: 0,
    issues: {},
    photos: 1,
    contacts: [
      {
        ...JOHN,
        emails: ['john.doe@ibm.cm other'],
        phones: ['+1 905 555 1234 work', '+1 905 666 1234 home'],
        birthday: '1980-03-22',
        birthdayYear: 1980,
        company: 'IBM',
        custom: ['Department=Accounting', 'Nickname=Johny'],
        addresses: 2,
      },
    ],
  },
  {
    file: 'fullcontact.vcf',
    read: 1,
    rejected: 0,
    issues: { invalid_phone: 9 },
    photos: 3,
    contacts: [
      {
        full: 'Prefix FirstName MiddleName LastName Suffix',
        first: 'FirstName',
        last: 'LastName',
        emails: [
          'home@example.com home',
          'work@example.com work',
          'school@example.com other',
          'other@example.com other',
          'custom@example.com other',
        ],
        phones: [],
        birthday: '2016-08-01',
        birthdayYear: 2016,
        groups: ['Tag'],
        company: 'Organization1',
        custom: ['Department=Department1', 'Nickname=NickName'],
        addresses: 4,
      },
    ],
  },
  {
    file: 'gmail-list.vcf',
    read: 3,
    rejected: 0,
    issues: {},
    photos: 0,
    contacts: [
      {
        full: 'Arnold Smith',
        first: 'Arnold',
        last: 'Smith',
        emails: ['asmithk@gmail.com other'],
        phones: [],
      },
      {
        full: 'Chris Beatle',
        first: 'Chris',
        last: 'Beatle',
        emails: ['chrisy55d@yahoo.com other'],
        phones: [],
      },
      { full: 'Doug White', first: 'Doug', last: 'White', emails: ['dwhite@gmail.com other'], phones: [] },
    ],
  },
  {
    file: 'gmail-single.vcf',
    read: 1,
    rejected: 0,
    issues: { invalid_phone: 2 },
    photos: 0,
    contacts: [
      {
        full: 'Greg Dartmouth',
        first: 'Greg',
        last: 'Dartmouth',
        emails: ['gdartmouth@hotmail.com other'],
        phones: [],
        birthday: '1960-09-10',
        birthdayYear: 1960,
        company: 'TheCompany',
        custom: ['Nickname=Gman'],
        addresses: 2,
      },
    ],
  },
  {
    file: 'gmail-single2.vcf',
    read: 1,
    rejected: 0,
    issues: { invalid_phone: 11 },
    photos: 0,
    contacts: [
      {
        full: 'VCard Test',
        first: 'VCard',
        last: 'Test',
        emails: [
          'email@example.com other',
          'homeemail@example.com home',
          'workemail@example.com work',
          'otheremail@example.com other',
          'customcategory@example.com other',
        ],
        phones: [],
        birthday: '1912-06-23',
        birthdayYear: 1912,
        company: 'TheCompany',
        custom: ['Nickname=TheNickname'],
        addresses: 5,
      },
    ],
  },
  {
    file: 'outlook-2003.vcf',
    read: 1,
    rejected: 0,
    issues: { invalid_phone: 4 },
    photos: 0,
    contacts: [
      {
        full: 'John Doe III',
        first: 'John',
        last: 'Doe',
        emails: ['jdoe@hotmail.com other'],
        phones: [],
        birthday: '1980-03-21',
        birthdayYear: 1980,
        company: 'Company, The',
        custom: ['Department=TheDepartment', 'Nickname=Joey'],
        addresses: 1,
      },
    ],
  },
  {
    file: 'outlook-2007.vcf',
    read: 1,
    rejected: 0,
    issues: { invalid_phone: 4 },
    photos: 1,
    contacts: [
      {
        full: 'Mr. Michael Angstadt Jr.',
        first: 'Michael',
        last: 'Angstadt',
        emails: ['mike.angstadt@gmail.com other'],
        phones: [],
        birthday: '1922-03-10',
        birthdayYear: 1922,
        company: 'TheCompany',
        custom: ['Department=TheDepartment', 'Nickname=Mike'],
        addresses: 1,
      },
    ],
  },
  {
    file: 'rfc2426-example.vcf',
    read: 2,
    rejected: 0,
    issues: {},
    photos: 0,
    contacts: [
      {
        full: 'Frank Dawson',
        first: 'Frank',
        last: 'Dawson',
        emails: ['frank_dawson@lotus.com other', 'fdawson@earthlink.net other'],
        phones: ['+1 919 676 9515 work', '+1 919 676 9564 fax'],
        company: 'Lotus Development Corporation',
        addresses: 1,
      },
      {
        full: 'Tim Howes',
        first: 'Tim',
        last: 'Howes',
        emails: ['howes@netscape.com other'],
        phones: ['+1 415 937 3419 work', '+1 415 528 4164 fax'],
        company: 'Netscape Communications Corp.',
        addresses: 1,
      },
    ],
  },
  {
    file: 'rfc6350-example.vcf',
    read: 1,
    rejected: 0,
    issues: {},
    photos: 0,
    contacts: [
      {
        full: 'Simon Perreault',
        first: 'Simon',
        last: 'Perreault',
        emails: ['simon.perreault@viagenie.ca work'],
        phones: ['+1 418 656 9254 ext. 102 work', '+1 418 262 6501 mobile'],
        birthday: '1604-02-03',
        company: 'Viagenie',
        addresses: 1,
      },
    ],
  },
  {
    file: 'thunderbird-MoreFunctionsForAddressBook-extension.vcf',
    read: 1,
    rejected: 0,
    issues: { invalid_phone: 5 },
    photos: 1,
    contacts: [
      {
        full: 'John Doe',
        first: 'John',
        last: 'Doe',
        emails: [
          'doe.john@hotmail.com other',
          'additional-email@company.com other',
          'additional-email1@company.com other',
          'additional-email2@company.com other',
          'additional-email3@company.com other',
        ],
        phones: [],
        birthday: '1970-09-21',
        birthdayYear: 1970,
        groups: ['category1', 'category2', 'category3'],
        company: 'TheOrganization',
        custom: ['Department=TheDepartment', 'Nickname=Johnny'],
        addresses: 2,
      },
    ],
  },
];
