/** Numbers, hex and ids vary between otherwise equal messages: they are grouped as one shape. */
export function messageShape(message: string): string {
  let shape = message;
  // Each expression only where it can match (a uuid has dashes, hex its 0x): most messages have neither.
  if (shape.includes('-')) shape = shape.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>');
  if (shape.includes('0x') || shape.includes('0X')) shape = shape.replace(/\b0x[0-9a-f]+\b/gi, '<hex>');
  // An HTTP status says what went wrong (401: the key, 503: the platform away): kept where the message speaks of one.
  if (HTTP_STATUS_SAID.test(shape)) return shape.replace(/\d+/g, (digits) => (HTTP_STATUS.test(digits) ? digits : '#')).slice(0, 200);
  return shape.replace(/\d+/g, '#').slice(0, 200);
}

/** A message that speaks of an HTTP status (`Expected status code to be 200, but was 401`, `Status: 400 (Bad Request)`, `HTTP 503`). */
const HTTP_STATUS_SAID = /status|http/i;
/** A number that may be an HTTP status: three digits, 100 to 599. */
const HTTP_STATUS = /^[1-5]\d\d$/;
