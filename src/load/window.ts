/**
 * Runs tasks with at most `size` in flight. The first failure stops new tasks from starting; the
 * ones in flight finish, then `drain` rethrows it. A graceful stop works the same way without error.
 */
export class TaskWindow {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;
  private weight = 0;

  /**
   * `size` tasks at most in flight; and, when `maxWeight` is given, tasks whose weights (a request's
   * body bytes) add up to at most that, though one task alone always runs.
   */
  constructor(
    private readonly size: number,
    private readonly maxWeight = Infinity,
  ) {}

  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Waits for a free place, then starts `task`. Returns false (and starts nothing) after a failure. */
  async run(task: () => Promise<void>, weight = 0): Promise<boolean> {
    while (
      this.running.size >= this.size ||
      (this.running.size > 0 && this.weight + weight > this.maxWeight)
    ) {
      await Promise.race(this.running);
    }
    if (this.failure) return false;
    this.weight += weight;
    const promise: Promise<void> = task()
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => {
        this.weight -= weight;
        this.running.delete(promise);
      });
    this.running.add(promise);
    return true;
  }

  /** Waits for everything in flight; rethrows the first failure. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.race(this.running);
    if (this.failure) throw this.failure.error;
  }
}
