import test from 'ava';
import { unwritableFix } from '../../src/state/checkpointer.js';

const error = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });

// From a platform trial: a full volume was told to "point --state-file at a writable file".
const cases: [code: string, says: RegExp][] = [
  ['ENOSPC', /volume it is on is full: free space on it/],
  ['EDQUOT', /volume it is on is full/],
  ['EROFS', /mounted read-only/],
  ['EACCES', /^uid \d+ may not write it or its directory: run the sidecar as the user that owns the log volume/],
  ['EISDIR', /a directory has its name/],
  ['EIO', /^point --state-file at a writable file$/],
];

for (const [code, says] of cases) {
  test(`state unwritable: ${code} says what to do about it`, (t) => {
    t.regex(unwritableFix(error(code)), says);
  });
}
