/**
 * The signals that stop a run or an undo gracefully: Ctrl-C, SIGTERM, and SIGHUP (the terminal or
 * SSH session went away: stopped from outside, like SIGTERM). The first aborts the controller with
 * the signal's name as the reason (run/report-of.ts turns it into 130, or 143 for SIGTERM and
 * SIGHUP); a second exits at once with that code.
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export const signalExitCode = (signal: NodeJS.Signals): number =>
  signal === 'SIGTERM' || signal === 'SIGHUP' ? 143 : 130;

export const stopOnSignals = (onFirst?: (signal: NodeJS.Signals) => void): AbortController => {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(signalExitCode(signal));
    onFirst?.(signal);
    controller.abort(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return controller;
};
