/**
 * What a recorded WebSocket conversation's messages tell about its turns, by
 * a word field of a message (a type, at the top or one map down:
 * `msg_type`, `header.msg_type`), never by ids or times:
 *
 * - the message a sent one answered (the last received before it): the
 *   step sends it once such a message arrived (`after: {message: …}`), not
 *   once as many messages arrived as the recording had, since a live server
 *   sends a varying number of others first (a fresh Jupyter kernel's
 *   `status` messages);
 * - the answers to the last sent message: the step receives until each
 *   kind of them arrived (`until: […]`), in whatever order the server's
 *   channels deliver them (a kernel's `execute_result` and `execute_reply`).
 *
 * @module
 */
import type { WsConversation } from "./har_websocket.ts";
import { isStableValue } from "./values.ts";

/** A path to a word field of a message (`["header", "msg_type"]`). */
type Field = string[];

/** When each sent message goes, and what ends receiving, as a step writes them. */
export interface Turns {
  /** Per sent message: a count, the message it answered, or nothing (at once, or with the one before). */
  after: (number | { message: string } | undefined)[];
  /** The answers to the last sent message, when the client had waited for a turn and answers came. */
  until?: string[];
}

/**
 * The turns of a conversation whose received messages are `received` (as
 * the step reports them): a sent message that waited for messages waits for
 * the one it answered when a word field tells it from the others received
 * since the message before it was sent, else for as many messages; when one
 * waited and answers to the last came, receiving ends once each kind of
 * them arrived.
 *
 * @example
 * ```ts
 * import { turnsOf } from "./har_websocket_answers.ts";
 * const m = (type: "send" | "receive", after?: number) => ({ type, binary: false, data: "", after });
 * const conversation = {
 *   sent: [m("send", 0), m("send", 2)], received: [m("receive"), m("receive"), m("receive"), m("receive")],
 *   laterSent: 0, laterReceived: 0, cappedSent: 0, subprotocols: [],
 * };
 * const received = [{ type: "status" }, { type: "info" }, { type: "result" }, { type: "reply" }];
 * const turns = turnsOf(conversation, received);
 * if (JSON.stringify(turns.after) !== `[null,{"message":"$[?@.type == 'info']"}]`) throw new Error();
 * if (turns.until?.join() !== "$[?@.type == 'result'],$[?@.type == 'reply']") throw new Error();
 * ```
 */
export function turnsOf(conversation: WsConversation, received: unknown[]): Turns {
  let waited = 0;
  const after = conversation.sent.map((m, i) => {
    const count = m.after ?? 0;
    if (count <= waited) return undefined;
    const since = conversation.sent[i - 1]?.after ?? 0;
    waited = count;
    const message = answeredBy(received[count - 1], received.slice(since, count - 1));
    return message ? { message } : count;
  });
  const last = conversation.sent.at(-1)?.after ?? 0;
  const answers = waited > 0 && received.length > last ? received.slice(last) : [];
  const until = answers.length > 0 ? allAnswers(received.slice(0, last), answers) : undefined;
  return { after, ...(until && until.length > 0 ? { until } : {}) };
}

/**
 * The condition selecting the message `last` by a word field that none of
 * `earlier` has with that value, e.g. `$[?@.header.msg_type == 'kernel_info_reply']`;
 * `undefined` when `last` is not a JSON map or no field tells it apart.
 *
 * @example
 * ```ts
 * import { answeredBy } from "./har_websocket_answers.ts";
 * const got = answeredBy({ type: "info", id: "a1" }, [{ type: "status", id: "a0" }]);
 * if (got !== "$[?@.type == 'info']") throw new Error(got);
 * if (answeredBy({ type: "status" }, [{ type: "status" }]) !== undefined) throw new Error();
 * ```
 */
export function answeredBy(last: unknown, earlier: unknown[]): string | undefined {
  const field = telling(last, earlier);
  return field && condition(field, at(last, field) as string);
}

/**
 * The conditions that hold once every kind of answer the recording received
 * after the last sent message arrived: a word field that tells an answer
 * (the last that has one) from every message before the send, and each
 * value of it the answers hold that no message before the send held (in
 * order, once each). `undefined` when no answer has such a field (a status
 * the server sends all along tells nothing).
 *
 * @example
 * ```ts
 * import { allAnswers } from "./har_websocket_answers.ts";
 * const before = [{ type: "status" }, { type: "info" }];
 * const answers = [{ type: "status" }, { type: "result", value: 2 }, { type: "reply" }, { type: "status" }];
 * const got = allAnswers(before, answers);
 * if (got?.join() !== "$[?@.type == 'result'],$[?@.type == 'reply']") throw new Error(String(got));
 * ```
 */
export function allAnswers(before: unknown[], answers: unknown[]): string[] | undefined {
  const field = answers.toReversed().map((m) => telling(m, before)).find((f) => f !== undefined);
  if (!field) return undefined;
  const seen = new Set(before.map((m) => at(m, field)));
  const values: string[] = [];
  for (const m of answers) {
    const value = at(m, field);
    if (typeof value !== "string" || !isStableValue(field.at(-1)!, value)) continue;
    if (!seen.has(value) && !values.includes(value)) values.push(value);
  }
  return values.map((value) => condition(field, value));
}

/** The first word field of `last` (top, then one map down) whose value none of `earlier` has. */
function telling(last: unknown, earlier: unknown[]): Field | undefined {
  if (!isMap(last)) return undefined;
  const fields: Field[] = [];
  for (const [k, v] of Object.entries(last)) {
    if (isMap(v)) fields.push(...Object.keys(v).map((inner) => [k, inner]));
    else fields.push([k]);
  }
  return fields.find((path) => {
    const value = at(last, path);
    // A word of an enumeration (a type, a state), not an id or a time made for this message.
    if (typeof value !== "string" || !isStableValue(path.at(-1)!, value)) return false;
    if (!path.every((k) => /^[A-Za-z_]\w*$/.test(k))) return false;
    return !earlier.some((m) => at(m, path) === value);
  });
}

function condition(field: Field, value: string): string {
  return `$[?@.${field.join(".")} == '${value.replace(/[\\']/g, "\\$&")}']`;
}

function at(m: unknown, path: Field): unknown {
  return path.reduce<unknown>((v, k) => isMap(v) ? v[k] : undefined, m);
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
