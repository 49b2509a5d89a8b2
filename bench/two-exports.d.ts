import type { LabelledPerson } from './people-sets.js';

export function twoExports(options?: {
  seed?: number;
  people?: number;
}): (LabelledPerson & { source: 'crm' | 'book' })[];
