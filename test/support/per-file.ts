import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dirs.js';

// A setup file runs before each test file, also when the files of a worker share their modules
// (vitest `isolate: false`), so each file gets its own cleanup hook; a hook registered at a shared
// module's top level would belong to the first file that imported it only.
afterAll(removeTempDirs);
