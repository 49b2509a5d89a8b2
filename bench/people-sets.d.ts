import type { PersonFields } from '../src/candidates/types.js';

export interface LabelledPerson {
  entity: string;
  person: PersonFields;
}
export interface Scores {
  precision: number;
  recall: number;
  f1: number;
  predicted: number;
  truth: number;
}
export const PEOPLE_DIR: string;
export function febrl(
  name: string,
  options?: { idNumber?: boolean; birthDate?: boolean; address?: boolean },
): LabelledPerson[];
export function fake1000(): LabelledPerson[];
export function truePairs(records: readonly LabelledPerson[]): Set<string>;
export function score(predicted: readonly { a: number; b: number }[], truth: Set<string>): Scores;
export function exactNamePairs(people: readonly PersonFields[]): { a: number; b: number }[];
