/** Numbers, hex and ids vary between otherwise equal messages: they are grouped as one shape. */
export function messageShape(message: string): string {
  let shape = message;
  // Each expression only where it can match (a uuid has dashes, hex its 0x): most messages have neither.
  if (shape.includes('-')) shape = shape.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>');
  if (shape.includes('0x') || shape.includes('0X')) shape = shape.replace(/\b0x[0-9a-f]+\b/gi, '<hex>');
  return shape.replace(/\d+/g, '#').slice(0, 200);
}
