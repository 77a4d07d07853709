/**
 * Lines that kubectl (or the shell around it) prints, pasted into an input beside log lines:
 * `kubectl describe`'s events, `kubectl get`'s tables, its errors and warnings, the `$ kubectl
 * …` prompt lines. Such a line is never part of a log's record, whatever came before it: an
 * agent's record goes on over free text (`&{builds 0xc00013cdc0} : Invalid type…`), but not
 * over these, or doctor would show the events' problems in the agent's log at its time.
 */
const KUBECTL_OUTPUT = [
  // A pasted prompt: `$ kubectl describe pod …`, `% kubectl …`, `# kubectl …`.
  /^[$%#] +\S/,
  // Errors and warnings of kubectl itself.
  /^Error from server\b/,
  /^error: /,
  /^Warning: /,
  // `kubectl describe`: the events' heading, their table's header and rule, and each event.
  /^Events:\s*(?:<none>)?$/,
  /^\s*Type\s+Reason\s+Age\s+From\s+Message\s*$/,
  /^\s*-{4}\s+-{6}\s+-{3,}/,
  /^\s+(?:Normal|Warning)\s{2,}[A-Z][A-Za-z]+\s{2,}/,
  // `kubectl get`'s table header (NAME first, then capital words).
  /^NAME(?:SPACE)?\s{2,}[A-Z]+(?:[ -][A-Z]+)*\s{2,}/,
];

/** Whether `line` is one of kubectl's (or a pasted prompt's), not a log's. */
export function isKubectlOutputLine(line: string): boolean {
  return KUBECTL_OUTPUT.some((shape) => shape.test(line));
}
