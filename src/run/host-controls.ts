/**
 * What belongs to the program that owns the process, not to the library: a run changes nothing of
 * its host (no V8 flag, no environment read, no thread priority) unless the owner hands it these.
 * The command line sets them all (src/cli/host-controls.ts); an application embedding runImport
 * sets what it wants, and a run without them behaves the same, minus those effects.
 */
export interface HostControls {
  /** Normalize workers per input (0 = in-thread); default: by input size (parallel/normalize-pool.ts). */
  workers?: number;
  /**
   * The process's garbage collector, called after a request body of 1 MB or more so wide records
   * leave no hundreds of MB behind (load/reclaim.ts).
   */
  collectGarbage?: () => void;
  /**
   * Normalize workers that share the process with a load (load while reading) run at a lower
   * scheduling priority (nice 10, their threads only): the records are needed only as fast as the
   * load sends them.
   */
  lowerWorkerPriority?: boolean;
  /** The machine-wide target gates' folder (state/target-gate.ts); default `~/.cache/contact-import/targets`. */
  gateDir?: string;
}
