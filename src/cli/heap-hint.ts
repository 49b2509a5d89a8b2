import { setV8FlagUnlessGiven } from './v8-flag.js';

/**
 * How far V8 lets the heap grow past what was live at its last full collection, in percent. Its
 * own choice goes up to 300% when collecting looks cheap, and a large dry run then held several
 * times its live heap (rows waiting in batches outlive two young collections and are promoted).
 * At 100% it holds far less for little more CPU (figures: bench/README.md, "heap hint").
 */
export const HEAP_GROWING_PERCENT = 100;

/**
 * Set once by the command line before any work: it is the process's, so the library never sets
 * it (an application embedding runImport keeps its own). A value given in NODE_OPTIONS or on the
 * node command line wins.
 */
export const applyHeapHint = (): void => setV8FlagUnlessGiven('heap-growing-percent', HEAP_GROWING_PERCENT);
