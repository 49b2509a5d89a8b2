import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Test folders by how long their files take: the end-to-end and reliability files run for seconds. */
const FOLDER_RANK: Record<string, number> = { reliability: 0, e2e: 0, contract: 1, unit: 2 };

const rankOf = (file: string): number => FOLDER_RANK[relative('test', file).split(/[\\/]/)[0] ?? ''] ?? 1;

/**
 * The slow folders first, larger files first within a folder, the same on every machine (vitest's
 * own order uses the durations of the last run on this machine, and CI starts without them). The
 * many short unit files come last, where they fill the gaps while the last long files finish.
 */
export default class SlowFoldersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const key = (spec: TestSpecification) => ({
      rank: rankOf(relative(root, spec.moduleId)),
      size: statSync(spec.moduleId).size,
    });
    const keys = new Map(files.map((spec) => [spec, key(spec)]));
    return [...files].sort(
      (a, b) => keys.get(a)!.rank - keys.get(b)!.rank || keys.get(b)!.size - keys.get(a)!.size,
    );
  }
}
