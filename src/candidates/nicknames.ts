/**
 * Given names and their nicknames (data/nicknames/names.csv): `bob` and `robert` are related
 * when one is a nickname of the other or both are nicknames of one name.
 */
import { readFileSync } from 'node:fs';

/** From src/candidates/ and, bundled, from dist/cli/: both are two folders below the package. */
const TABLE_URL = new URL('../../data/nicknames/names.csv', import.meta.url);

export class Nicknames {
  /** For a name, the formal names it stands for, itself included. */
  private readonly roots = new Map<string, string[]>();

  constructor(csv: string) {
    for (const line of csv.split(/\r?\n/u).slice(1)) {
      const [formal, relation, nickname] = line.split(',');
      if (!formal || relation !== 'has_nickname' || !nickname) continue;
      this.add(nickname, formal);
      this.add(formal, formal);
    }
  }

  private add(name: string, formal: string): void {
    const list = this.roots.get(name);
    if (!list) this.roots.set(name, [formal]);
    else if (!list.includes(formal)) list.push(formal);
  }

  /** The formal names a folded first name may stand for, itself first. */
  rootsOf(name: string): readonly string[] {
    const roots = this.roots.get(name);
    if (!roots) return [name];
    return roots.includes(name) ? [name, ...roots.filter((r) => r !== name)] : [name, ...roots];
  }

  /** Whether two different folded first names may be one person's. */
  related(a: string, b: string): boolean {
    const rootsA = this.roots.get(a);
    const rootsB = this.roots.get(b);
    if (!rootsA || !rootsB) return false;
    for (const root of rootsA) if (rootsB.includes(root)) return true;
    return false;
  }
}

let shipped: Nicknames | undefined;

/** The table the package ships, read once. */
export const shippedNicknames = (): Nicknames => (shipped ??= new Nicknames(readFileSync(TABLE_URL, 'utf8')));
