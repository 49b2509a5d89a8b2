import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { hostControls } from '../../../src/cli/host-controls.js';

describe('hostControls: what the command line decides for its own process', () => {
  it('takes the gates’ folder from the environment it is given', () => {
    expect(hostControls({ CONTACT_IMPORT_LOCK_DIR: '/locks' }).gateDir).toBe('/locks');
    expect(hostControls({ XDG_CACHE_HOME: '/cache' }).gateDir).toBe(
      join('/cache', 'contact-import', 'targets'),
    );
  });

  it('hands over V8’s collector, exposed on its first call', () => {
    const { collectGarbage } = hostControls({});
    collectGarbage!();
    expect(runInNewContext('typeof gc')).toBe('function');
  });
});
