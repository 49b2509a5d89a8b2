// `npm test` runs this first (pretest): the report.html browser tests drive Debian's Chromium
// (test/e2e/browser.ts), never a downloaded browser build. Where it is missing and this runs as
// root with apt-get (CI, a fresh container), it is installed; anywhere else one line says how, and
// the browser tests fail saying the same.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const given = process.env.CONTACT_IMPORT_CHROMIUM;
const chromium = given ?? '/usr/bin/chromium';
const aptGet = ['/usr/bin/apt-get', '/bin/apt-get'].find((path) => existsSync(path));
const install = (sudo) =>
  `${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends chromium`;

if (!existsSync(chromium)) {
  if (given === undefined && aptGet && process.getuid?.() === 0) {
    try {
      const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
      execFileSync(aptGet, ['update'], { stdio: 'inherit', env });
      execFileSync(aptGet, ['install', '-y', '--no-install-recommends', 'chromium'], {
        stdio: 'inherit',
        env,
      });
    } catch {
      process.stderr.write(
        `pretest: installing Chromium failed; the browser tests need it: ${install('')}\n`,
      );
    }
  } else {
    process.stderr.write(
      `pretest: no Chromium at ${chromium}; the browser tests need it: ${install('sudo ')}\n`,
    );
  }
}
