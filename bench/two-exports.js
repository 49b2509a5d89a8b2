/**
 * Two exports of one organisation, seeded: a CRM export (work e-mail, company, title) and an
 * address book (personal e-mail, mobile, birthday), with the people in both under other e-mails,
 * and what makes that hard: nicknames, typos, an older employer, a move, namesakes at other
 * companies, and relatives sharing a home phone. Records carry the truth (`entity`) and their
 * export (`source`: `crm` or `book`).
 *
 *   twoExports({ seed: 1, people: 1500 })
 */
import { rng } from './generate.js';

const GIVEN = [
  ['robert', 'bob'],
  ['william', 'bill'],
  ['elizabeth', 'liz'],
  ['margaret', 'peggy'],
  ['richard', 'dick'],
  ['james', 'jim'],
  ['jennifer', 'jen'],
  ['michael', 'mike'],
  ['katherine', 'kate'],
  ['thomas', 'tom'],
  ['christopher', 'chris'],
  ['patricia', 'pat'],
  ['daniel', 'dan'],
  ['susan', 'sue'],
  ['joseph', 'joe'],
  ['rebecca', 'becky'],
  ['anthony', 'tony'],
  ['deborah', 'debbie'],
  ['nicholas', 'nick'],
  ['alexander', 'alex'],
  ['priya'],
  ['mei'],
  ['olu'],
  ['fatima'],
  ['sven'],
  ['aiko'],
  ['mateo'],
  ['ingrid'],
  ['yusuf'],
  ['chloe'],
];
const SURNAMES = [
  'smith',
  'johnson',
  'brown',
  'nakamura',
  'okafor',
  'lindqvist',
  'garcia',
  'miller',
  'davis',
  'novak',
  'kowalski',
  'oconnor',
  'haddad',
  'fischer',
  'rossi',
  'dubois',
  'tanaka',
  'patel',
  'nguyen',
  'schmidt',
  'moreau',
  'silva',
  'jansen',
  'andersen',
  'kaur',
  'murphy',
  'walsh',
  'becker',
  'costa',
  'weber',
];
// Made-up surnames beside real ones: a surname shared by chance is as rare as in a real export.
const MADE_UP = ['ash', 'bel', 'cor', 'dun', 'el', 'fen', 'gar', 'hol', 'ket', 'lor', 'mar', 'nor'].flatMap(
  (head) => ['ford', 'wick', 'ton', 'by', 'mere', 'stead', 'worth', 'dale'].map((tail) => head + tail),
);
const COMPANIES = [
  'Acme Inc',
  'Globex Corporation',
  'Initech LLC',
  'Umbrella Ltd',
  'Stark Industries',
  'Wayne Enterprises',
  'Hooli',
  'Vandelay GmbH',
  'Soylent Co',
  'Tyrell Corp',
];
const TITLES = ['Engineer', 'Sales Manager', 'Accountant', 'Designer', 'CEO', 'Analyst', 'Consultant'];
const CITIES = ['London', 'Leeds', 'Bristol', 'Manchester', 'Glasgow', 'Cardiff', 'York', 'Bath'];
const FREE_MAIL = ['gmail.com', 'yahoo.com', 'outlook.com', 'proton.me'];

export const twoExports = ({ seed = 1, people = 1500 } = {}) => {
  const random = rng(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  // A few common surnames (smith, johnson, brown) take a large share, as in life.
  const surname = () =>
    random() < 0.15 ? SURNAMES[Math.floor(random() * 3)] : random() < 0.4 ? pick(SURNAMES) : pick(MADE_UP);
  const phone = () => `+4477${String(Math.floor(random() * 1e8)).padStart(8, '0')}`;
  const typo = (word) => {
    const i = 1 + Math.floor(random() * (word.length - 2));
    return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  };
  const domainOf = (company) => `${company.split(' ')[0].toLowerCase()}.com`;
  const cap = (w) => w[0].toUpperCase() + w.slice(1);

  const persons = [];
  for (let id = 0; id < people; id++) {
    const relative = id > 0 && random() < 0.12 ? persons[Math.floor(random() * persons.length)] : undefined;
    const names = pick(GIVEN);
    const last = relative ? relative.last : surname();
    const company = pick(COMPANIES);
    persons.push({
      id,
      names,
      last,
      company,
      previous: pick(COMPANIES.filter((c) => c !== company)),
      title: pick(TITLES),
      city: relative ? relative.city : pick(CITIES),
      home: relative ? relative.home : random() < 0.6 ? phone() : undefined,
      mobile: phone(),
      birthday: `19${50 + Math.floor(random() * 50)}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`,
      n: Math.floor(random() * 99),
    });
  }

  const records = [];
  // A second person of one name at one company gets another work address, as a mail server would.
  const taken = new Set();
  const workEmail = (local, domain) => {
    let address = `${local}@${domain}`;
    for (let k = 2; taken.has(address); k++) address = `${local}${k}@${domain}`;
    taken.add(address);
    return address;
  };
  for (const p of persons) {
    const inCrm = random() < 0.75;
    const inBook = !inCrm || random() < 0.45;
    const formal = p.names[0];
    if (inCrm) {
      records.push({
        entity: String(p.id),
        source: 'crm',
        person: {
          firstName: cap(formal),
          lastName: cap(p.last),
          emails: [workEmail(`${formal}.${p.last}`, domainOf(p.company))],
          phones: random() < 0.5 ? [p.mobile] : [],
          company: p.company,
          jobTitle: p.title,
          city: p.city,
        },
      });
    }
    if (inBook) {
      const nickname = p.names[1] && random() < 0.4 ? p.names[1] : formal;
      const phones = [];
      if (random() < 0.8) phones.push(p.mobile);
      if (p.home && random() < 0.5) phones.push(p.home);
      records.push({
        entity: String(p.id),
        source: 'book',
        person: {
          firstName: cap(nickname),
          lastName: cap(random() < 0.1 ? typo(p.last) : p.last),
          emails: [`${nickname[0]}${p.last}${p.n}@${pick(FREE_MAIL)}`],
          phones,
          company: random() < 0.3 ? undefined : random() < 0.2 ? p.previous : p.company,
          city: random() < 0.15 ? pick(CITIES.filter((c) => c !== p.city)) : p.city,
          birthday: random() < 0.5 ? p.birthday : undefined,
        },
      });
    }
  }
  return records;
};
