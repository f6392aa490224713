// The W3C trace context of one request (https://www.w3.org/TR/trace-context/): the browser
// starts each call's trace, so the gateway, the services and the events a call leads to
// share one trace id from the very first hop (an operator finds the whole journey in
// Jaeger by it, and every server log line of the call carries it).

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** Random bytes, none of them all zero (an all-zero trace or span id is invalid). */
function randomId(length: number): string {
  const bytes = new Uint8Array(length);
  do crypto.getRandomValues(bytes);
  while (bytes.every((b) => b === 0));
  return hex(bytes);
}

export interface TraceContext {
  traceId: string;
  /** The `traceparent` header: version 00, the trace id, this request's span id, sampled. */
  traceparent: string;
}

export function newTraceContext(): TraceContext {
  const traceId = randomId(16);
  return { traceId, traceparent: `00-${traceId}-${randomId(8)}-01` };
}
