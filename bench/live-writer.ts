/**
 * `node live-writer.js RATE SECONDS FILE...`: appends numbered ~200-byte lines to every FILE
 * at RATE lines/s each, for SECONDS, in batches every 10 ms; prints the lines written per file.
 */
import fs from 'node:fs';

const [rateText, secondsText, ...files] = process.argv.slice(2);
const rate = Number(rateText);
const seconds = Number(secondsText);
const fds = files.map((file) => fs.openSync(file, 'a'));
const padding = 'p'.repeat(170);
let written = 0;
const started = Date.now();
const timer = setInterval(() => {
  const due = Math.floor(((Date.now() - started) / 1000) * rate);
  if (due > written) {
    for (const [index, fd] of fds.entries()) {
      let batch = '';
      for (let n = written + 1; n <= due; n++) batch += `live-${index}-${String(n).padStart(9, '0')} ${padding}\n`;
      fs.writeSync(fd, batch);
    }
    written = due;
  }
  if (Date.now() - started >= seconds * 1000) {
    clearInterval(timer);
    process.stdout.write(`${written}\n`);
  }
}, 10);
