/** Numbers, hex and ids vary between otherwise equal messages: they are grouped as one shape. */
export function messageShape(message: string): string {
  let shape = message;
  // Each expression only where it can match (a uuid has dashes, hex its 0x): most messages have neither.
  if (shape.includes('-')) shape = shape.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>');
  if (shape.includes('0x') || shape.includes('0X')) shape = shape.replace(/\b0x[0-9a-f]+\b/gi, '<hex>');
  // An HTTP status says what went wrong (401: the key, 503: the platform away): kept where the
  // words just before it say it is one; any other number of the message is masked.
  if (HTTP_STATUS_SAID.test(shape)) {
    const text = shape;
    return text.replace(/\d+/g, (digits: string, at: number) => (HTTP_STATUS.test(digits) && STATUS_BEFORE.test(text.slice(Math.max(0, at - 32), at)) ? digits : '#')).slice(0, 200);
  }
  return shape.replace(/\d+/g, '#').slice(0, 200);
}

/** A message that may speak of an HTTP status: a cheap test before the numbers are looked at one by one. */
const HTTP_STATUS_SAID = /status|http|but was/i;
/** A number that may be an HTTP status: three digits, 100 to 599. */
const HTTP_STATUS = /^[1-5]\d\d$/;
/**
 * The words right before a number that say it is a status: `status code to be `, `but was `,
 * `Status: `, `statusCode=`, `HTTP `, `HTTP/1.1 `.
 */
const STATUS_BEFORE = /(?:status ?(?:code)?(?: (?:was|is|of|to be))?[ :=]*|but was |HTTP(?:\/[\d.]+)? )$/i;
