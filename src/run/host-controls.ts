/**
 * What belongs to the program that owns the process, not to the library: a run changes nothing of
 * its host (no V8 flag, no environment read) unless the owner hands it these.
 * The command line sets them all (src/cli/host-controls.ts); an application embedding runImport
 * sets what it wants, and a run without them behaves the same, minus those effects.
 */
export interface HostControls {
  /**
   * The process's garbage collector, called after a request body of 1 MB or more so wide records
   * leave no hundreds of MB behind (load/reclaim.ts), and once the duplicate candidates are
   * matched and the people they were found among let go (candidates/people.ts).
   */
  collectGarbage?: () => void;
  /** The machine-wide target gates' folder (state/target-gate.ts); default `~/.cache/contact-import/targets`. */
  gateDir?: string;
}
