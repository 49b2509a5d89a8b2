import { describe, expect, it } from 'vitest';
import { invocation } from '../../../src/cli/invocation.js';

describe('invocation', () => {
  it('names the installed bin, or the script path relative to the working folder', () => {
    expect(invocation(['/usr/bin/node', '/usr/local/bin/contact-import'], '/home/u')).toBe('contact-import');
    expect(invocation(['/usr/bin/node', '/repo/dist/cli/main.js'], '/repo')).toBe('node dist/cli/main.js');
    expect(invocation(['/usr/bin/node', '/my repo/dist/cli/main.js'], '/tmp')).toBe(
      "node '../my repo/dist/cli/main.js'",
    );
  });
});
