import type { LabelledPerson } from './people-sets.js';

export function twoExports(options?: {
  seed?: number;
  people?: number;
  names?: 'wide' | 'narrow';
}): (LabelledPerson & { source: 'crm' | 'book' })[];
