import { setV8FlagUnlessGiven } from './v8-flag.js';

/**
 * How much a WebAssembly function runs before V8 recompiles it with its optimizing compiler, in
 * V8's rough units of bytes executed (its own default is 1,800,000). undici reads every HTTP answer
 * with llhttp, a WebAssembly parser that is one very large function: at V8's budget the first
 * answer already sends it to the optimizing compiler, whose work on a background thread costs more
 * CPU than a short run spends on everything else it sends and receives. With this budget it is
 * optimized after about a hundred answers, so a long run still gets the fast parser.
 */
export const WASM_TIERING_BUDGET = 500_000_000;

/**
 * Set once by the command line before anything compiles WebAssembly: it is the process's, so the
 * library never sets it. A value given in NODE_OPTIONS or on the node command line wins.
 */
export const applyWasmTieringHint = (): void =>
  setV8FlagUnlessGiven('wasm-tiering-budget', WASM_TIERING_BUDGET);
