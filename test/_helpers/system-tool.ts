/**
 * Tests that need a program Node does not bring (logrotate, chromium, jq, lnav): such a test
 * runs when the program is installed. When it is not, the test is skipped, and its title says
 * which Debian package to install, so `npm test` on a machine with only Node passes and says
 * what it left out. Under `CI=true` a missing program is a failing test instead: CI installs
 * every one of them (`.ci/run`) and must never skip silently.
 */
import test, { type ExecutionContext } from 'ava';
import fs from 'node:fs';
import path from 'node:path';

export interface SystemTool {
  /** The command, as looked up on PATH. */
  readonly command: string;
  /** Other places it is installed under another name (Debian's chromium, say). */
  readonly alternatives?: readonly string[];
  /** The Debian package that installs it. */
  readonly debianPackage: string;
}

export const LOGROTATE: SystemTool = { command: 'logrotate', alternatives: ['/usr/sbin/logrotate'], debianPackage: 'logrotate' };
export const CHROMIUM: SystemTool = { command: 'chromium', alternatives: ['/usr/bin/chromium-browser'], debianPackage: 'chromium' };
export const JQ: SystemTool = { command: 'jq', debianPackage: 'jq' };
export const LNAV: SystemTool = { command: 'lnav', debianPackage: 'lnav' };
export const GREP: SystemTool = { command: 'grep', debianPackage: 'grep' };
export const BASH: SystemTool = { command: 'bash', debianPackage: 'bash' };
export const ZSH: SystemTool = { command: 'zsh', debianPackage: 'zsh' };
export const FISH: SystemTool = { command: 'fish', debianPackage: 'fish' };

/** The tool's full path, or undefined when it is not installed. */
export function findTool(tool: SystemTool): string | undefined {
  const onPath = (process.env['PATH'] ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, tool.command));
  return [...onPath, ...(tool.alternatives ?? [])].find(isExecutable);
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Whether a missing tool fails the test (CI) rather than skipping it. */
export function mustHaveTools(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['CI'] === 'true';
}

/** Registers `title` to run with the tool's path; skipped with its reason, or failed in CI, when it is missing. */
export function testWithTool(
  tool: SystemTool,
  title: string,
  implementation: (t: ExecutionContext, toolPath: string) => void | Promise<void>,
): void {
  const found = findTool(tool);
  if (found) {
    test(title, (t) => implementation(t, found));
  } else if (mustHaveTools()) {
    test(title, (t) => {
      t.fail(`${tool.command} is not installed, and CI runs every test: install the Debian package ${tool.debianPackage} (.ci/run does)`);
    });
  } else {
    test.skip(`${title} [skipped: ${tool.command} is not installed; apt-get install ${tool.debianPackage}]`, () => {});
  }
}
