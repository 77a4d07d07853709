/**
 * Colour, decided once: `--color always|never`, else NO_COLOR (any value) turns it off,
 * FORCE_COLOR (not "0") turns it on, else on for a terminal that is not "dumb".
 */
export type ColorMode = 'auto' | 'always' | 'never';

export function colorEnabled(mode: ColorMode, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (mode !== 'auto') return mode === 'always';
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['FORCE_COLOR'] !== undefined) return env['FORCE_COLOR'] !== '0' && env['FORCE_COLOR'] !== 'false';
  return isTTY && env['TERM'] !== 'dumb';
}

export type Paint = (text: string) => string;

export interface Palette {
  readonly enabled: boolean;
  readonly dim: Paint;
  readonly bold: Paint;
  readonly red: Paint;
  readonly yellow: Paint;
  readonly green: Paint;
  readonly blue: Paint;
  readonly magenta: Paint;
  readonly cyan: Paint;
  readonly gray: Paint;
  readonly inverse: Paint;
  readonly redBadge: Paint;
}

const sgr = (enabled: boolean, open: string, close: string): Paint =>
  enabled ? (text) => `\u001b[${open}m${text}\u001b[${close}m` : (text) => text;

export function palette(enabled: boolean): Palette {
  return {
    enabled,
    dim: sgr(enabled, '2', '22'),
    bold: sgr(enabled, '1', '22'),
    red: sgr(enabled, '31', '39'),
    yellow: sgr(enabled, '33', '39'),
    green: sgr(enabled, '32', '39'),
    blue: sgr(enabled, '34', '39'),
    magenta: sgr(enabled, '35', '39'),
    cyan: sgr(enabled, '36', '39'),
    gray: sgr(enabled, '90', '39'),
    inverse: sgr(enabled, '7', '27'),
    redBadge: sgr(enabled, '97;41', '39;49'),
  };
}
