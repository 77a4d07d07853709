import test from 'ava';
import { missingReports, type MissingFile } from '../../src/sidecar/once-missing.js';

const file = (logType: string, at: string): MissingFile => ({ logType, path: `${at}/${logType}.log`, variable: `MDB_LOG_FILE_${logType.toUpperCase()}` });

test('--once, missing files: a line a file whose directory is there, saying whether the others were read', (t) => {
  const reports = missingReports([file('backup-agent', '/logs')], 7, 3, () => 'directory');
  t.deepEqual(reports, [
    {
      fields: { event: 'missing', source: 'backup-agent', path: '/logs/backup-agent.log', variable: 'MDB_LOG_FILE_BACKUP-AGENT' },
      message: '--once: /logs/backup-agent.log is not there; the other files were read (exit 3)',
    },
  ]);
  t.is(missingReports([file('mongodb', '/logs')], 0, 3, () => 'directory')[0]!.message, '--once: /logs/mongodb.log is not there; nothing was read (exit 3)');
});

test('--once, a path given by --file: the flag is named, not the variable it did not use; a directory at the path is said as that', (t) => {
  const given: MissingFile = { ...file('mongodb', '/logs'), origin: 'flag', what: 'a directory' };
  t.deepEqual(missingReports([given], 0, 3, () => 'directory'), [
    {
      fields: { event: 'missing', source: 'mongodb', path: '/logs/mongodb.log', flag: '--file mongodb', what: 'a directory' },
      message: '--once: /logs/mongodb.log is a directory, not a file; nothing was read (exit 3)',
    },
  ]);
});

test('--once, a directory that is not there: one line for it and its files (a mistyped --log-dir), files elsewhere apart', (t) => {
  const missing = [file('mongodb', '/typo'), file('automation-agent', '/typo'), file('mongodb-audit', '/audit')];
  const reports = missingReports(missing, 1, 3, (dir) => (dir === '/audit' ? 'directory' : 'missing'));
  t.deepEqual(
    reports.map((r) => r.fields),
    [
      { event: 'missing-dir', path: '/typo', files: ['mongodb.log', 'automation-agent.log'] },
      { event: 'missing', source: 'mongodb-audit', path: '/audit/mongodb-audit.log', variable: 'MDB_LOG_FILE_MONGODB-AUDIT' },
    ],
  );
  t.is(reports[0]!.message, '--once: the directory /typo is not there (the 2 files followed in it: mongodb.log, automation-agent.log); the other files were read (exit 3). Check --log-dir or MMS_LOG_DIR');
  t.deepEqual(missingReports([], 8, 3, () => 'missing'), []);
  // A file where the directory should be.
  t.regex(missingReports([file('mongodb', '/etc/hosts')], 0, 3, () => 'not a directory')[0]!.message, /^--once: \/etc\/hosts is not a directory \(the file followed in it: mongodb\.log\); nothing was read/);
});

// From a platform trial: a directory named by MDB_LOG_FILE_MONGODB or --file was said to want
// --log-dir or MMS_LOG_DIR, which do not set it.
test('--once, a directory that is not there: the fix names what set its files\' paths (the variable, --file, or the log dir)', (t) => {
  const by = (origin: MissingFile['origin']): MissingFile => ({ ...file('mongodb', '/nope'), variable: 'MDB_LOG_FILE_MONGODB', origin });
  t.regex(missingReports([by('variable')], 7, 3, () => 'missing')[0]!.message, /\. Check MDB_LOG_FILE_MONGODB$/);
  t.regex(missingReports([by('flag')], 7, 3, () => 'missing')[0]!.message, /\. Check --file mongodb=PATH$/);
  t.regex(missingReports([by('log-dir')], 7, 3, () => 'missing')[0]!.message, /\. Check --log-dir or MMS_LOG_DIR$/);
  t.regex(missingReports([by('variable'), { ...file('automation-agent', '/nope'), origin: 'log-dir' }], 7, 3, () => 'missing')[0]!.message, /\. Check MDB_LOG_FILE_MONGODB, --log-dir or MMS_LOG_DIR$/);
});
