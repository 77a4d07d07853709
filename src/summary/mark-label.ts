/** The words a mark on a chart carries (a member's lane events, the other logs' marks): cut to MAX_MARK_LABEL characters, `…` where cut. */
export const MAX_MARK_LABEL = 200;

export const markLabel = (text: string): string => (text.length > MAX_MARK_LABEL ? `${text.slice(0, MAX_MARK_LABEL - 1)}…` : text);
