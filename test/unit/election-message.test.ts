/**
 * The one rule that says whether a server message tells of an election: real messages of 4.4+
 * servers (Hatchet's replica members) and of pre-4.4 text logs, and the server's "not starting"
 * whatever reason follows it.
 */
import test from 'ava';
import { isElectionMessage } from '../../src/summary/election-message.js';

const rows: readonly [string, boolean][] = [
  // 4.4+ (rs1, rs2)
  ['Election succeeded, assuming primary role', true],
  ['Starting an election, since we\'ve seen no PRIMARY in election timeout period', true],
  ['Stepping down from primary in response to replSetStepDown', true],
  ['Not starting an election, since we are shutting down', false],
  ['Not starting an election, since we are not electable', false],
  // pre-4.4 text lines: the reason is in the message itself, and may hold election words.
  ['Not starting an election, since we are not electable due to: Not standing for election because I am still waiting for stepdown period to end at 2020-03-12T00:01:05.000+0000', false],
  ['not electing self, we are not freshest', true],
  ['transition to PRIMARY from SECONDARY', false],
  ['Connection accepted', false],
];

for (const [message, election] of rows) {
  test(`"${message.slice(0, 60)}": ${election ? 'an election' : 'no election'}`, (t) => {
    t.is(isElectionMessage(message), election);
  });
}
