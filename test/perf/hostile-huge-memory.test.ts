import { describeHugeInputs } from '../reliability/huge-inputs.js';

/**
 * The huge hostile inputs with the CLI's heap capped at 192 MB: a reader that held a 50 MB line
 * whole, several times over, or a million-deep JSON array on the stack, dies here.
 */
describeHugeInputs('huge hostile inputs, memory capped at 192 MB', '--max-old-space-size=192');
