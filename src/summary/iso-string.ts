/** A time (epoch ms) as summary writes it, ISO 8601; undefined for none (an infinity or NaN). */
export const isoString = (ms: number): string | undefined => (Number.isFinite(ms) ? new Date(ms).toISOString() : undefined);
