/**
 * `kubectl logs -f POD | logtype`: a line whose record the next line may continue (an agent's,
 * the operator's) is held until a line that does not continue it comes, or the input pauses.
 * On a pipe that stays open and quiet (a quiet pod), the pause must be seen: the line is shown
 * while the writer is still there, not when it ends. Each case writes real lines into a real
 * pipe, then keeps the pipe open.
 */
import { spawn } from 'node:child_process';
import test from 'ava';
import { FILTER_BIN, cleanEnv } from '../_helpers/sidecar-process.js';
import { entryLine } from '../_helpers/filter-process.js';

const AGENT_ERROR = entryLine('automation-agent', '[2026-11-22T10:00:02.000+0000] [.error] [x.go:f:1] m1 failed');
const AGENT_STDERR = entryLine('automation-agent-stderr', 'panic: runtime error: invalid memory address or nil pointer dereference');
/** The operator's console line (zap), as `kubectl logs` of the operator's pod writes it: no entry. */
const OPERATOR_LINE = '2020-09-13T08:33:14.361Z\tERROR\toperator/mongodbreplicaset_controller.go:61\tReconcile failed\t{"ReplicaSet": "data/devops"}';
const CONTINUATION = entryLine('automation-agent', '\tgoroutine 1 [running]:');

/** How long the writer keeps the pipe open, quiet, after its lines. */
const WRITER_STAYS_S = 8;

interface Seen {
  readonly text: string;
  /** Milliseconds from the start to the first byte of output; undefined when none came. */
  readonly firstAtMs: number | undefined;
  readonly code: number | null;
}

/** Writes `steps` (lines, and pauses in ms) into a pipe to logtype, then keeps the pipe open. */
async function throughPipe(steps: readonly (string | number)[], args: readonly string[]): Promise<Seen> {
  const script = steps.map((step) => (typeof step === 'number' ? `sleep ${step / 1000}` : `printf '%s\\n' '${step.replaceAll("'", "'\\''")}'`)).join('; ');
  const child = spawn('bash', ['-c', `{ ${script}; sleep ${WRITER_STAYS_S}; } | "${process.execPath}" "${FILTER_BIN}" ${args.join(' ')}`], {
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const started = Date.now();
  let text = '';
  let firstAtMs: number | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    firstAtMs ??= Date.now() - started;
    text += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { text, firstAtMs, code };
}

const CASES: { title: string; steps: (string | number)[]; args: string[]; expected: string }[] = [
  {
    title: "an agent's error line, pretty",
    steps: [AGENT_ERROR],
    args: ['-o', 'pretty', '--color', 'never', '--utc'],
    expected: 'agent         2026-11-22 10:00:02.000Z ERROR x.go:f:1 m1 failed\n',
  },
  {
    title: "the agent's stderr, raw with -l error",
    steps: [AGENT_STDERR],
    args: ['-o', 'raw', '-l', 'error'],
    expected: 'panic: runtime error: invalid memory address or nil pointer dereference\n',
  },
  {
    title: "the operator's console line (not an entry), raw with -m",
    steps: [OPERATOR_LINE],
    args: ['-o', 'raw', '-m', 'Reconcile'],
    expected: `${OPERATOR_LINE}\n`,
  },
  // The rest of a record that comes within the pause (200 ms) still joins it: one record, both
  // lines; at 150 ms too, past the polls' doubling waits (1 ms, 2, 4, ... 64: 127 ms in all).
  ...[50, 150].map((gap) => ({
    title: `a record whose next line comes ${gap} ms later, raw with -l error`,
    steps: [AGENT_ERROR, gap, CONTINUATION],
    args: ['-o', 'raw', '-l', 'error'],
    expected: '[2026-11-22T10:00:02.000+0000] [.error] [x.go:f:1] m1 failed\n\tgoroutine 1 [running]:\n',
  })),
];

for (const { title, steps, args, expected } of CASES) {
  test(`a quiet pipe that stays open: ${title} is shown while the writer is still there`, async (t) => {
    const seen = await throughPipe(steps, args);
    t.is(seen.code, 0);
    t.is(seen.text, expected);
    // Before the writer ends (WRITER_STAYS_S), with seconds to spare for a busy machine.
    t.true(seen.firstAtMs !== undefined && seen.firstAtMs < (WRITER_STAYS_S - 3) * 1000, `the line came after ${seen.firstAtMs} ms`);
  });
}
