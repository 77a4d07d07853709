/**
 * Tests that run commands as other uids, as the pod's containers run: the operator's database
 * pod user (uid 2000, fsGroup 2000) and users that are not it. Changing uid takes root and
 * setpriv (util-linux): without them such a test is skipped with the reason, and fails under
 * CI=true, as the other tests that need a system program do.
 */
import test, { type ExecutionContext } from 'ava';
import { findTool, mustHaveTools, type SystemTool } from './system-tool.js';

export const SETPRIV: SystemTool = { command: 'setpriv', debianPackage: 'util-linux' };
/** The operator's database pod: runAsUser and fsGroup. */
export const POD_UID = 2000;

/** Registers a test that needs to run commands as other uids. */
export function testAsOtherUsers(title: string, implementation: (t: ExecutionContext, setpriv: string) => Promise<void>): void {
  const setpriv = findTool(SETPRIV);
  const root = process.getuid?.() === 0;
  if (setpriv && root) {
    test(title, (t) => implementation(t, setpriv));
    return;
  }
  const reason = !setpriv ? `setpriv is not installed; apt-get install ${SETPRIV.debianPackage}` : 'the tests do not run as root, so they cannot change uid';
  if (mustHaveTools()) test(title, (t) => t.fail(`${reason}: CI runs every test as root with setpriv (.ci/run)`));
  else test.skip(`${title} [skipped: ${reason}]`, () => {});
}

/** `setpriv` arguments that run a command as `uid`, with the pod's fsGroup as a supplementary group. */
export function asUser(setpriv: string, uid: number): { command: string; prefix: string[] } {
  return { command: setpriv, prefix: [`--reuid=${uid}`, `--regid=${uid}`, `--groups=${POD_UID}`, '--'] };
}
