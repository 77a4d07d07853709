/**
 * The page's one script: a click on a table's column header sorts its rows by that column
 * (numbers, the cells marked `n`, by value, the greatest first; words in order; a second click
 * reverses), rows of equal value keeping their order. The page reads whole without it: the
 * tables are written sorted as the text output sorts them, and the script only reorders rows.
 * It reads nothing from the log: every cell is compared by its text.
 */
export const TABLE_SORTER = `(() => {
  document.documentElement.classList.add('sortable');
  const key = (cell, numeric) => {
    const text = cell ? cell.textContent.trim() : '';
    if (!numeric) return text;
    const n = parseFloat(text.replace(/[~,]/g, ''));
    return Number.isNaN(n) ? -Infinity : n;
  };
  document.addEventListener('click', (event) => {
    const th = event.target instanceof Element ? event.target.closest('thead th') : null;
    const table = th && th.closest('table');
    const body = table && table.tBodies[0];
    if (!body) return;
    const column = th.cellIndex;
    const rows = [...body.rows];
    const numeric = rows.some((row) => row.cells[column] && row.cells[column].classList.contains('n'));
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
