/**
 * The members' lanes on the page: one lane per member on the time axis every chart shares
 * (time-charts.ts), each coloured by the state its log said it was in (STATE_COLORS), its
 * restarts (a dark triangle), shutdowns (a brown square), elections (a violet bar) and errors (a red dot, the errors'
 * colour) marked on it, every segment and mark titled with what it was. The member's name is
 * written inside the plot in a row of its own above its lane, cut to fit, so no text leaves the
 * chart and no mark covers a name at any width.
 */
import { ERROR_COLOR, MARKER_COLORS, OTHER_STATE_COLOR, STATE_COLORS } from './chart-colors.js';
import { markerKindWords } from './chart-markers.js';
import type { MemberSummary } from './summary.js';
import { PLOT, escapeHtml, frame, xOf, type TimeAxis } from './time-charts.js';

/**
 * One lane's height in the SVG's units: its name's row, then its bar. The name's row holds
 * nothing else: a mark reaches at most MARK_OVERHANG above the bar (a restart's triangle), and
 * the bar starts that far below the name's box (12-unit text on its baseline at NAME_BASELINE,
 * its descent to about 15, a few units clear), so no mark covers a name at any width (at 390 px the plot is at its
 * least width, where the first marks of a lane sat under its name).
 */
const LANE_HEIGHT = 46;
const NAME_BASELINE = 12;
const MARK_OVERHANG = 6;
const BAR_TOP = 19 + MARK_OVERHANG;
const BAR_HEIGHT = 16;
/** A member's name is cut here on the chart (its title has it whole). */
const MAX_NAME_CHARS = 48;
/** Marks drawn per lane at the most (the member's table counts them all). */
export const MAX_LANE_MARKS = 200;

const stateColor = (state: string): string => (Object.hasOwn(STATE_COLORS, state) ? STATE_COLORS[state]! : OTHER_STATE_COLOR);
const cutName = (name: string): string => (name.length > MAX_NAME_CHARS ? `${name.slice(0, MAX_NAME_CHARS - 1)}…` : name);

/** The lanes' height for `members` lanes. */
export const lanesHeight = (members: number): number => PLOT.top + members * LANE_HEIGHT + PLOT.bottom;

/**
 * The marks a lane draws: restarts, shutdowns and elections all (they are few), then errors, the earliest
 * first, to MAX_LANE_MARKS; how many were left out.
 */
export function laneMarks(events: MemberSummary['events'], most = MAX_LANE_MARKS): { drawn: MemberSummary['events']; left: number } {
  const rare = events.filter((e) => e.kind !== 'error');
  const errors = events.filter((e) => e.kind === 'error');
  const drawn = [...rare, ...errors].slice(0, most).sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  return { drawn, left: events.length - drawn.length };
}

export function laneChart(members: readonly MemberSummary[], axis: TimeAxis): string {
  const x = xOf(axis);
  const height = lanesHeight(members.length);
  const right = PLOT.width - PLOT.right;
  let body = '';
  // The members' names over the markers' lines, each on a halo of the plot's colour (always
  // readable), and the lanes' marks over all.
  let names = '';
  let marks = '';
  const states = new Set<string>();
  let left = 0;
  members.forEach((member, i) => {
    const top = PLOT.top + i * LANE_HEIGHT;
    const barY = top + BAR_TOP;
    names += `<text class="lane-name" data-member="${escapeHtml(member.name)}" x="${PLOT.left + 4}" y="${top + NAME_BASELINE}"><title>${escapeHtml(member.name)}</title>${escapeHtml(cutName(member.name))}</text>`;
    body += `<g class="lane" data-member="${escapeHtml(member.name)}">`;
    marks += `<g class="lane-events" data-member="${escapeHtml(member.name)}">`;
    for (const segment of member.lane) {
      states.add(segment.state);
      const from = x(Date.parse(segment.from));
      const to = Math.min(right, x(Date.parse(segment.to)));
      body += `<rect class="lane-state" data-state="${escapeHtml(segment.state)}" data-from="${Date.parse(segment.from)}" data-to="${Date.parse(segment.to)}" x="${from.toFixed(1)}" y="${barY}" width="${Math.max(0.5, to - from).toFixed(1)}" height="${BAR_HEIGHT}" fill="${stateColor(segment.state)}"><title>${escapeHtml(`${member.name}: ${segment.state} from ${segment.from} to ${segment.to}`)}</title></rect>`;
    }
    const kept = laneMarks(member.events);
    left += kept.left + member.eventsNotKept;
    for (const event of kept.drawn) {
      const at = x(Date.parse(event.time));
      const title = `<title>${escapeHtml(`${event.time} ${member.name}: ${event.label}`)}</title>`;
      const shape =
        event.kind === 'restart'
          ? `<path d="M${(at - 5).toFixed(1)} ${barY - MARK_OVERHANG}h10l-5 8z" fill="${MARKER_COLORS.restart}"/>`
          : event.kind === 'shutdown'
            ? `<rect x="${(at - 3.5).toFixed(1)}" y="${barY - MARK_OVERHANG}" width="7" height="7" fill="${MARKER_COLORS.shutdown}"/>`
          : event.kind === 'election'
            ? `<rect x="${(at - 1.5).toFixed(1)}" y="${barY - 3}" width="3" height="${BAR_HEIGHT + 6}" fill="${MARKER_COLORS.election}"/>`
            : `<circle cx="${at.toFixed(1)}" cy="${barY + BAR_HEIGHT / 2}" r="3.5" fill="${ERROR_COLOR}" stroke="#fff" stroke-width="1"/>`;
      marks += `<g class="lane-event lane-event-${event.kind}" data-time="${Date.parse(event.time)}">${title}${shape}</g>`;
    }
    body += '</g>';
    marks += '</g>';
  });
  const order = Object.keys(STATE_COLORS);
  const legend =
    [...states]
      .sort((a, b) => (order.includes(a) ? order.indexOf(a) : order.length) - (order.includes(b) ? order.indexOf(b) : order.length))
      .map((state) => `<span class="swatch" data-key="${escapeHtml(state)}" style="background:${stateColor(state)};outline:1px solid #cfd8dc"></span>${escapeHtml(state)}`)
      .join(' ') +
    ` <span class="marker-key">on a lane: <b style="color:${MARKER_COLORS.restart}">▼</b> ${markerKindWords('restart', members.flatMap((m) => m.events.filter((e) => e.kind === 'restart').map((e) => e.label)))}, ${members.some((m) => m.events.some((e) => e.kind === 'shutdown')) ? `<b style="color:${MARKER_COLORS.shutdown}">■</b> shutdown, ` : ''}<b style="color:${MARKER_COLORS.election}">|</b> election or step-down, <b style="color:${ERROR_COLOR}">●</b> error${left > 0 ? ` (${left.toLocaleString('en-US')} more not drawn)` : ''}</span>`;
  return frame(`Replica set members (${members.length}), one lane each: the state each member's log said it was in`, 'plot-lanes', axis, body, legend, height, names + marks, false);
}
