/**
 * An answer that is a stream the server holds open: a gRPC gateway's
 * server-streaming call, which its generator marks in the 2xx response's
 * description ("A successful response.(streaming responses)") and in its
 * schema's title ("Stream result of …"): etcd's `POST /v3/watch`. Such a
 * step waited out the run's `--timeout` (30 s by default) for an end that
 * never comes, then failed; its step now states a short timeout of its own
 * ({@linkcode STREAM_TIMEOUT}), and its comment says why. A stream that
 * ends (a snapshot) ends within it on a small instance; a larger one needs
 * the user's own value, which the comment names.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { type YMap, ymap, type YNode } from "../yaml_out.ts";
import { deref } from "./examples.ts";
import { saysRedirect } from "./said_redirect.ts";

/** The timeout a streamed answer's step states. */
export const STREAM_TIMEOUT = "5s";

/** Whether one of the operation's 2xx answers is marked a stream (see the module). */
function streamed(doc: unknown, op: Node): boolean {
  const responses = isNode(op.responses) ? op.responses : {};
  return Object.keys(responses).filter((c) => /^2/.test(c)).some((c) => {
    const r = deref(doc, responses[c]);
    if (!isNode(r)) return false;
    if (typeof r.description === "string" && /\(streaming responses?\)/i.test(r.description)) {
      return true;
    }
    const content = isNode(r.content) ? Object.values(r.content) : [];
    return content.some((m) => {
      const schema = isNode(m) ? deref(doc, m.schema) : undefined;
      return isNode(schema) && typeof schema.title === "string" &&
        /^Stream result of\b/.test(schema.title);
    });
  });
}

/**
 * A step's `options`: `follow_redirects` where the document says it
 * redirects (`said_redirect.ts`), a timeout of its own for a streamed
 * answer (see the module, said in `comments`); none else.
 *
 * @example
 * ```ts
 * import { stepOptions } from "./stream_answer.ts";
 * const comments: string[] = [];
 * const op = { responses: { "200": { description: "A successful response.(streaming responses)" } } };
 * if (!JSON.stringify(stepOptions({}, op, comments)).includes("5s") || comments.length !== 1) {
 *   throw new Error();
 * }
 * if (stepOptions({}, { responses: { "200": { description: "OK" } } }, []) !== undefined) throw new Error();
 * ```
 */
export function stepOptions(doc: unknown, op: Node, comments: string[]): YNode | undefined {
  const stream = streamed(doc, op);
  if (stream) {
    comments.push(
      `its answer is a stream the server holds open: the step gives up after ${STREAM_TIMEOUT} (options.timeout; a longer stream needs more)`,
    );
  }
  const options = ymap([
    ["follow_redirects", saysRedirect(doc, op) ? true : undefined],
    ["timeout", stream ? STREAM_TIMEOUT : undefined],
  ]);
  return options.entries.length > 0 ? options : undefined;
}

/** Whether a GET's 2xx answers are all `text/event-stream`: server-sent events. */
function eventStream(doc: unknown, op: Node, method: YNode | undefined): boolean {
  const responses = isNode(op.responses) ? op.responses : {};
  const media = Object.keys(responses).filter((c) => /^2/.test(c)).flatMap((c) => {
    const r = deref(doc, responses[c]);
    return isNode(r) && isNode(r.content) ? Object.keys(r.content) : [];
  });
  return method === "GET" && media.length > 0 && media.every((m) => /^text\/event-stream/i.test(m));
}

/**
 * A step (flow YAML) of an operation that answers server-sent events read
 * as an `sse:` step (the step changed in place): the same URL and headers, read until the first event
 * (or 10 s), its status checked; a plain request waited for an end the
 * server never sends (Express-Zod-API's `/v1/events/stream`), and the
 * document gives the events no JSON body for an `openapi:` check. A step
 * that sends a query or cookies, or no stream, is kept as it is.
 *
 * @example
 * ```ts
 * import { asEventStream } from "./stream_answer.ts";
 * import { ymap } from "../yaml_out.ts";
 * const op = { responses: { "200": { content: { "text/event-stream": {} } } } };
 * const request = ymap([["method", "GET"], ["url", "${ENV.BASE_URL}/events"]]);
 * const step = asEventStream({}, op, ymap([["name", "e"], ["request", request], ["assert", ymap([["status", 200], ["openapi", "d.yaml"]])]]));
 * const text = JSON.stringify(step);
 * if (!text.includes('"sse"') || text.includes('"request"') || text.includes("openapi")) throw new Error(text);
 * ```
 */
export function asEventStream(doc: unknown, op: Node, step: YMap): YMap {
  const request = step.entries.find(([k]) => k === "request")?.[1];
  if (!isYMap(request)) return step;
  const get = (key: string) => request.entries.find(([k]) => k === key)?.[1];
  if (!eventStream(doc, op, get("method")) || get("query") || get("cookies")) return step;
  const sse = ymap([["url", get("url")], ["headers", get("headers")], ["count", 1], [
    "wait",
    "10s",
  ]]);
  // In place: the flow keeps the step's node, to add its captures later.
  step.entries = step.entries.map(([k, v]): [string, YNode] => {
    if (k === "request") return ["sse", sse];
    if (k === "assert" && isYMap(v)) {
      return [k, {
        ...v,
        entries: v.entries.filter(([a]) => a !== "openapi"),
      }];
    }
    return [k, v];
  });
  return step;
}

function isYMap(node: YNode | undefined): node is YMap {
  return node !== null && typeof node === "object" && !Array.isArray(node) && node.kind === "map";
}
