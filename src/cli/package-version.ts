/**
 * The version `--version` prints: package.json's, the one file every install of the package
 * has beside `dist/` (npm, a packed tarball, the image). Read only when asked, so no other run
 * pays for it. Relative to the compiled module, dist/src/cli/package-version.js.
 */
import fs from 'node:fs';

const PACKAGE_JSON = new URL('../../../package.json', import.meta.url);

export function packageVersion(): string {
  const { version } = JSON.parse(fs.readFileSync(PACKAGE_JSON, 'utf8')) as { version?: unknown };
  if (typeof version !== 'string') throw new Error(`${PACKAGE_JSON.pathname} has no version`);
  return version;
}
