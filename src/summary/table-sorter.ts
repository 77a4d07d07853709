/**
 * The page's one script: a click on a table's column header sorts its rows by that column
 * (numbers, the cells marked `n`, and durations and sizes as the page writes them, `3m 19s`,
 * `68ms`, `2.1 KiB`, by value, the greatest first; words in order, the numbers in them by value,
 * so `10.0.0.9` comes before `10.0.0.10` and `conn9` before `conn12`; a second click reverses),
 * rows of equal value keeping their order. The page reads whole without it: the tables are
 * written sorted as the text output sorts them, and the script only reorders rows. It reads
 * nothing from the log: every cell is compared by its text.
 */
export const TABLE_SORTER = `(() => {
  document.documentElement.classList.add('sortable');
  const UNITS = { ms: 1, s: 1e3, m: 6e4, h: 36e5, d: 864e5, B: 1, KiB: 1024, MiB: 1048576, GiB: 1073741824 };
  const MEASURE = /^(?:~?\\d+(?:\\.\\d+)? ?(?:ms|s|m|h|d|B|KiB|MiB|GiB)(?: |$))+$/;
  const text = (cell) => (cell ? cell.textContent.trim() : '');
  // A duration or a size, in its smallest unit; undefined for any other text.
  const measure = (t) => {
    if (!MEASURE.test(t)) return undefined;
    let sum = 0;
    for (const [, n, unit] of t.matchAll(/(\\d+(?:\\.\\d+)?) ?(ms|s|m|h|d|B|KiB|MiB|GiB)/g)) sum += parseFloat(n) * UNITS[unit];
    return sum;
  };
  const key = (cell, numeric) => {
    const t = text(cell);
    if (!numeric) return t.toLowerCase().replace(/\\d+/g, (digits) => digits.padStart(16, '0'));
    const measured = measure(t);
    if (measured !== undefined) return measured;
    const n = parseFloat(t.replace(/[~,]/g, ''));
    return Number.isNaN(n) ? -Infinity : n;
  };
  // A column of numbers: some cell marked so, or every cell but a dash a duration or a size.
  const isNumeric = (rows, column) =>
    rows.some((row) => row.cells[column] && row.cells[column].classList.contains('n')) ||
    (rows.some((row) => measure(text(row.cells[column])) !== undefined) && rows.every((row) => { const t = text(row.cells[column]); return t === '' || t === '-' || measure(t) !== undefined; }));
  document.addEventListener('click', (event) => {
    const th = event.target instanceof Element ? event.target.closest('thead th') : null;
    const table = th && th.closest('table');
    const body = table && table.tBodies[0];
    if (!body) return;
    const column = th.cellIndex;
    const rows = [...body.rows];
    const numeric = isNumeric(rows, column);
    const was = th.getAttribute('aria-sort');
    const now = was === 'descending' ? 'ascending' : was === 'ascending' ? 'descending' : numeric ? 'descending' : 'ascending';
    for (const other of th.parentElement.children) other.removeAttribute('aria-sort');
    th.setAttribute('aria-sort', now);
    const sign = now === 'ascending' ? 1 : -1;
    const keyed = rows.map((row, index) => ({ row, index, value: key(row.cells[column], numeric) }));
    keyed.sort((a, b) => (a.value < b.value ? -sign : a.value > b.value ? sign : a.index - b.index));
    body.append(...keyed.map(({ row }) => row));
  });
})();`;
