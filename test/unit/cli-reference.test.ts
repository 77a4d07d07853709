import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { CLI_REFERENCE, cliCommands, cliReference } from '../_helpers/cli-reference.js';
import { REPO } from '../_helpers/sidecar-process.js';

const written = fs.readFileSync(path.join(REPO, CLI_REFERENCE), 'utf8');

test(`${CLI_REFERENCE} is what the option tables say (npm run docs writes it)`, (t) => {
  t.is(written, cliReference(), `${CLI_REFERENCE} differs from the option tables in src/cli/: run npm run docs`);
});

for (const [name, { options, help }] of cliCommands()) {
  test(`${CLI_REFERENCE} names every option, example and exit status of ${name}`, (t) => {
    const section = written.split(/^## /m).find((part) => part.startsWith(`\`${name}\`\n`)) ?? '';
    t.true(section.includes(help.usage.split('\n')[0]!), 'usage');
    for (const [command] of help.examples) t.true(section.includes(`\n${command}\n`), command);
    for (const [status] of help.exitStatus) t.regex(section, new RegExp(`^\\| ${status} \\|`, 'm'));
    // The selection options are listed once, in the filter's section.
    const listed = name === 'logtype' || name === 'logtype-sidecar' ? section : `${section}${written}`;
    for (const option of Object.keys(options)) t.true(listed.includes(`\`--${option}`) || listed.includes(`\`-${options[option]!.short}\`, \`--${option}`), option);
  });
}
