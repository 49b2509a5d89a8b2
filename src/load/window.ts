/**
 * Runs tasks with at most `size` in flight. The first failure stops new tasks from starting; the
 * ones in flight finish, then `drain` rethrows it. A graceful stop works the same way without error.
 */
export class TaskWindow {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(private readonly size: number) {}

  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Waits for a free place, then starts `task`. Returns false (and starts nothing) after a failure. */
  async run(task: () => Promise<void>): Promise<boolean> {
    while (this.running.size >= this.size) await Promise.race(this.running);
    if (this.failure) return false;
    const promise: Promise<void> = task()
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => this.running.delete(promise));
    this.running.add(promise);
    return true;
  }

  /** Waits for everything in flight; rethrows the first failure. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.race(this.running);
    if (this.failure) throw this.failure.error;
  }
}
