/**
 * A recorded WebSocket as a `websocket:` step: the socket's URL on a base
 * URL of its own (a `ws://` origin cannot share an `http://` one's
 * variable), its handshake headers rewritten as an HTTP request's (browser
 * noise dropped, cookies and credentials by where they came from), the
 * subprotocols the client offered, the sent messages in order with their
 * values correlated like a JSON body's, each waiting (`after`) for the
 * message it answered (or as many messages as came before it), `count` the
 * messages received before the journey went on (`har_websocket.ts`), or
 * `until` each kind of answer to the last sent message arrived, the first JSON message received
 * checked as a body is, and what its messages hand out recorded for the
 * steps after it.
 *
 * @module
 */
import { isSecretName } from "../../secrets/mod.ts";
import type { HarRecord } from "../har_model.ts";
import type { WsConversation, WsMessage } from "../har_websocket.ts";
import { turnsOf } from "../har_websocket_answers.ts";
import { safeDecode, valueKey, walk } from "../json.ts";
import type { Check, Step } from "../model.ts";
import { shortName, snake } from "../names.ts";
import { emptyParts } from "./step_parts.ts";
import { isStableValue, looksLikeToken } from "../values.ts";
import { type YFlow, yflow, type YMap, ymap, ymapOf, type YScalar } from "../yaml_out.ts";
import { isIdSegment } from "./ids.ts";
import { rewriteUrl } from "./rewrite_url.ts";
import { bodyValue } from "./rewrite_value.ts";
import type { Correlator, Where } from "./state.ts";
import { withTokens } from "./tokens.ts";
import { AWAIT_WAIT } from "./websocket_await.ts";

/** How long a step whose recording received nothing listens after sending: it expects nothing. */
export const QUIET_WAIT = "1s";

/** Each correlation's WebSocket origins: the base-URL var reference and the variable it reads. */
const wsOrigins = new WeakMap<Correlator, Map<string, { ref: string; env: string }>>();

/**
 * Builds the websocket step of record `r` and adds it to `c.steps`.
 *
 * @example
 * ```ts
 * import { addWebSocketStep } from "./websocket_step.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * import { loadWebSocketMessages, webSocketOf } from "../har_websocket.ts";
 * import { parseHar } from "../har_model.ts";
 * const { records } = parseHar(JSON.stringify({ log: { entries: [{
 *   _resourceType: "websocket",
 *   request: { method: "GET", url: "ws://a.test/chat" }, response: { status: 101 },
 *   _webSocketMessages: [{ type: "send", opcode: 1, data: "hi" }, { type: "receive", opcode: 1, data: "hi" }],
 * }] } }), []);
 * loadWebSocketMessages(records, []);
 * const c = newCorrelator("a");
 * addWebSocketStep(c, records[0], webSocketOf(records[0])!);
 * if (c.steps[0].name !== "chat" || c.steps[0].url !== "${vars.ws_base_url}/chat") throw new Error(c.steps[0].url);
 * ```
 */
export function addWebSocketStep(c: Correlator, r: HarRecord, conversation: WsConversation): void {
  const segments = r.url.pathname.split("/").filter((s) => s !== "").map(safeDecode);
  const named = segments.filter((s) => !isIdSegment(c, s)).at(-1);
  const step: Step = {
    name: c.stepNames.take(shortName(snake(named ?? "") || "websocket")),
    records: [r],
    first: r,
    last: r,
    noun: snake(named ?? "") || "message",
    method: "GET",
    ...emptyParts(),
  };
  step.url = webSocketUrl(c, r, step);
  step.headers = c.rules.headers(r, step);
  // The recorded turns: a message the client sent once replies came waits for the one it
  // answered (or as many), and the answers to the last are all awaited (har_websocket_answers.ts).
  const turns = turnsOf(conversation, (r.json as { messages: unknown[] }).messages);
  const send = conversation.sent.map((m, i) => {
    const after = turns.after[i];
    return ymap([...sendItem(c, m, step).entries, ["after", after && afterNode(after)]]);
  });
  const count = conversation.received.length;
  const until = turns.until && (turns.until.length === 1 ? turns.until[0] : turns.until);
  step.websocket = ymap([
    ["subprotocols", conversation.subprotocols.length > 0 ? conversation.subprotocols : undefined],
    ["send", send.length > 0 ? send : undefined],
    ["count", count > 0 && !until ? count : undefined],
    ["until", until],
    ["wait", until ? AWAIT_WAIT : count > 0 ? undefined : QUIET_WAIT],
  ]);
  step.remarks = [
    `WebSocket: ${conversation.sent.length} sent and ${count} received before the next request began.`,
  ];
  rememberSent(c, conversation.sent);
  // What came before the first message a turn awaits varies from run to run (a kernel's
  // status messages): a check of it by index would fail when fewer came.
  const awaited = conversation.sent.find((_, i) => typeof turns.after[i] === "object");
  step.checks.push(...firstMessageChecks(r, c.secrets, (awaited?.after ?? Infinity) - 1));
  c.rules.produce(step);
  c.steps.push(step);
}

/**
 * The socket's URL: its origin as a `ws_base_url` var reading
 * `WS_BASE_URL` (`_2`, … for more), its path and query rewritten as an HTTP
 * request's. The HTTP base-URL vars are numbered as if the socket were not
 * there.
 */
function webSocketUrl(c: Correlator, r: HarRecord, step: Step): string {
  const origin = r.url.origin;
  // The API's own server (ws://host:port of an http://host:port the journey sent to): its base
  // URL serves, as the step connects to http(s):// as ws(s)://, and there is one variable to set.
  const api = c.origins.get(origin.replace(/^ws/, "http"));
  if (api) return withOrigin(c, origin, api, () => rewriteUrl(c, r, step));
  const known = wsOrigins.get(c) ?? new Map<string, { ref: string; env: string }>();
  wsOrigins.set(c, known);
  let ref = known.get(origin)?.ref;
  if (!ref) {
    const n = known.size;
    const name = c.varNames.take(n === 0 ? "ws_base_url" : `ws_base_url_${n + 1}`);
    const env = n === 0 ? "WS_BASE_URL" : `WS_BASE_URL_${n + 1}`;
    c.env.set(env, { about: "the WebSocket server's base URL", fallback: origin });
    c.vars.push([name, c.sp.envRef(env, origin)]);
    ref = c.sp.varRef(name);
    known.set(origin, { ref, env });
  }
  return withOrigin(c, origin, ref, () => rewriteUrl(c, r, step));
}

/** `make` with `origin` written as `ref` (unless the correlation already knows it), then forgotten. */
function withOrigin(c: Correlator, origin: string, ref: string, make: () => string): string {
  const had = c.origins.has(origin);
  if (!had) c.origins.set(origin, ref);
  try {
    return make();
  } finally {
    if (!had) c.origins.delete(origin);
  }
}

/**
 * What `--verify` reads for a WebSocket base-URL variable `name` that the
 * environment leaves unset: the verified instance's origin with the `ws`
 * scheme (`wss` for `https`) when the socket was recorded on the origin
 * that `BASE_URL` stands for (the page's own server, first sent to after
 * the socket opened: else the step uses `BASE_URL` itself), else
 * `undefined` (the recorded origin, which `--verify` does not send to).
 *
 * @example
 * ```ts
 * import { addWebSocketStep, verifiedWsBase } from "./websocket_step.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * import { baseRef } from "./rewrite_value.ts";
 * import { loadWebSocketMessages, webSocketOf } from "../har_websocket.ts";
 * import { parseHar } from "../har_model.ts";
 * const { records } = parseHar(JSON.stringify({ log: { entries: [{
 *   request: { method: "GET", url: "ws://a.test:8080/chat" }, response: { status: 101 },
 *   _webSocketMessages: [{ type: "send", opcode: 1, data: "hi" }],
 * }] } }), []);
 * loadWebSocketMessages(records, []);
 * const c = newCorrelator("a");
 * addWebSocketStep(c, records[0], webSocketOf(records[0])!);
 * baseRef(c, "http://a.test:8080");
 * const url = verifiedWsBase(c, "WS_BASE_URL", "https://staging.test/");
 * if (url !== "wss://staging.test") throw new Error(url);
 * ```
 */
export function verifiedWsBase(c: Correlator, name: string, baseUrl: string): string | undefined {
  const recorded = [...c.origins.keys()][0];
  const socket = [...wsOrigins.get(c) ?? []].find(([, v]) => v.env === name)?.[0];
  if (!recorded || !socket || !URL.canParse(baseUrl)) return undefined;
  if (socket !== recorded.replace(/^http/, "ws")) return undefined;
  const verified = new URL(baseUrl).origin;
  return /^https?:/.test(verified) ? verified.replace(/^http/, "ws") : undefined;
}

/** A turn as YAML: a count, or `{message: PATH}`. */
function afterNode(after: number | { message: string }): number | YFlow {
  return typeof after === "number" ? after : yflow([["message", after.message]]);
}

/** One sent message: JSON (an object or a list) by value, other text with its tokens, binary as recorded. */
function sendItem(c: Correlator, m: WsMessage, step: Step): YMap {
  if (m.binary) return ymap([["binary", c.sp.lit(m.data)]]);
  const json = jsonMessage(m.data);
  if (json === undefined) return ymap([["text", withTokens(c, m.data, step)]]);
  let credentials = false;
  walk(json, (_p, key, leaf) => {
    if (leaf !== "" && leaf !== null && isSecretName(key)) credentials = true;
  });
  // Not a write of the API's resources: no `${RUN_ID}` mixed into what a message says.
  const where: Where = { body: true, mutating: false, login: false, credentials };
  return ymap([["json", bodyValue(c, json, "", step, where)]]);
}

/** A text message's JSON object or list; `undefined` for any other text. */
function jsonMessage(text: string): object | undefined {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/** What the client sent, so a message echoing it is not taken as its source. */
function rememberSent(c: Correlator, sent: WsMessage[]): void {
  for (const m of sent) {
    if (m.binary) continue;
    const json = jsonMessage(m.data);
    if (json === undefined) c.sentSeen.add(valueKey(m.data));
    else walk(json, (_p, _k, leaf) => c.sentSeen.add(valueKey(leaf)));
  }
}

/**
 * Checks of the first JSON object received, as `assertions.ts` checks a
 * body: a `type` per top-level field (at most 15, nulls skipped), `equals`
 * only for stable values (booleans, short lower-case words under keys that
 * are not ids, times, tokens or counts) that are no secret. None when it
 * came before `steadyFrom`, the first message a turn awaits.
 */
function firstMessageChecks(
  r: HarRecord,
  secrets: ReadonlySet<string>,
  steadyFrom: number,
): Check[] {
  const messages = (r.json as { messages: unknown[] }).messages;
  const at = messages.findIndex((m) =>
    typeof m === "object" && m !== null && !Array.isArray(m) && !("binary" in m)
  );
  if (at === -1 || at < steadyFrom) return [];
  const checks: Check[] = [];
  for (const [key, value] of Object.entries(messages[at] as Record<string, unknown>)) {
    if (value === null || checks.length >= 15) continue;
    const path = ["messages", at, key];
    const secret = typeof value === "string" && (looksLikeToken(key, value) || secrets.has(value));
    if (!secret && isStableValue(key, value)) {
      checks.push({ path, op: "equals", value: value as YScalar });
      continue;
    }
    const type = Array.isArray(value) ? "array" : typeof value;
    checks.push({ path, op: "type", value: type === "bigint" ? "number" : type });
  }
  return checks;
}

/**
 * The map of a step of another kind (`websocket:`, `sse:`): its URL and
 * headers, then the rest (kept on the step by {@linkcode addWebSocketStep}
 * or `sse_step.ts`).
 *
 * @example
 * ```ts
 * import { kindStepNode } from "./websocket_step.ts";
 * import { ymap } from "../yaml_out.ts";
 * const node = kindStepNode("ws://a.test/chat", [], ymap([["count", 1]]));
 * if (node.entries.map(([k]) => k).join() !== "url,count") throw new Error();
 * ```
 */
export function kindStepNode(url: string, headers: [string, string][], rest: YMap): YMap {
  return ymap([
    ["url", url],
    ["headers", ymapOf(headers)],
    ...rest.entries,
  ]);
}
