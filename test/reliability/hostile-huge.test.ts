import { describeHugeInputs } from './huge-inputs.js';

// What the run does with each huge input; the same inputs under a heap cap: test/perf.
describeHugeInputs('huge hostile inputs');
