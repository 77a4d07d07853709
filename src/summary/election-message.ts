/**
 * Whether a server message tells of an election (one started, won, lost or failed, a step-down),
 * by its words: 4.4+ messages and pre-4.4 text lines alike. One rule for every part of the
 * report that asks (the replica set's story, the charts' E marks, the members' table).
 *
 * "Not starting an election" is the server's word that it held none (shutting down, not
 * electable), whatever reason follows it; a reason may itself hold election words ("waiting for
 * stepdown period to end").
 */
const ELECTION_WORDS = /election succeeded|starting an election|running for election|election failed|lost election|not electing self|stepping down from primary|stepdown/i;
const NO_ELECTION = /^\s*not starting an election/i;

export const isElectionMessage = (message: string): boolean => ELECTION_WORDS.test(message) && !NO_ELECTION.test(message);
