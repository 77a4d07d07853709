/**
 * A server line's attributes read from its text as members (each value the text it is, no
 * object made): pretty shows them as `key=value` without parsing the object and writing each
 * value back to JSON, and a record without the kernel's places reads one attribute so.
 */
import { jsonMembers, type JsonMember } from './json-members.js';
import { parseJson } from './json-value.js';

const ATTR_KEY = ',"attr":{';
const FIRST_KEY = /^\{"((?:[^"\\]|\\.)*)"/;

/** The members of a line's `attr`; undefined when they can't be read so (then parse the line). */
export function membersOfAttr(line: string): JsonMember[] | undefined {
  const at = line.indexOf(ATTR_KEY);
  if (at < 0) return line.includes('"attr"') ? undefined : [];
  const read = jsonMembers(line, at + ATTR_KEY.length - 1);
  // The server's cut attributes come with `truncated` and `size` after them: those are parsed.
  return read && !line.includes('"truncated":', read.end) ? read.members : undefined;
}

/** The first member named `key`, or undefined. */
export function memberNamed(members: readonly JsonMember[], key: string): JsonMember | undefined {
  return members.find((member) => member.key === key);
}

/**
 * A member's value: a string decoded, anything else parsed (a broken one is its text). Always
 * a new string, never a slice of the line: a value kept (a namespace, a shape) must not hold
 * a 13 KB line in memory.
 */
export function memberValue(member: JsonMember): unknown {
  try {
    return member.isString ? (JSON.parse(`"${member.text}"`) as unknown) : parseJson(member.text);
  } catch {
    return member.text;
  }
}

/** The first key of an object-valued member (a command's name), without parsing the object. */
export function memberFirstKey(member: JsonMember): string | undefined {
  const first = member.isString ? undefined : FIRST_KEY.exec(member.text);
  return first ? (memberValue({ key: '', text: first[1]!, isString: true }) as string) : undefined;
}
