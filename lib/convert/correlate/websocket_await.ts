/**
 * A websocket step whose captures read received messages waits for the
 * message that carries them, instead of for as many messages as the
 * recording held: a live server may send its frames in another order or
 * interleave others (Node-RED's `/comms` sends the deploy revision a later
 * request needs among status frames), and a count reached first ended the
 * step before the value came, failing every step after it. So the capture
 * reads any received message (`messages[*]`, the first match), and the step
 * receives `until` a message holds the value, bounded by
 * {@linkcode AWAIT_WAIT}. A value read by a regular expression from a text
 * message (framed JSON: Socket.IO's `430[{"ticket":…}]`) is awaited as the
 * message that writes its key (`search()`): a count would end the step when
 * the server sent another packet first. When the client sent more once
 * messages had come (`after`) and the recording received answers to that,
 * the step receives until the last of them instead (Jupyter's kernel socket:
 * the `execute_request` sent once the `kernel_info_reply` a save reads had
 * come, answered by `execute_result` and `execute_reply`): stopped at the
 * captured message, the step sent the request and closed the socket at once.
 *
 * @module
 */
import type { Source } from "../model.ts";
import type { Spelling } from "../spelling.ts";
import { isStableValue } from "../values.ts";
import { yflow, type YMap, ymap, type YNode } from "../yaml_out.ts";

/** How long a converted websocket step waits for the message its captures read. */
export const AWAIT_WAIT = "10s";

/**
 * The step's websocket map and captures when a capture reads a received
 * message, or `undefined` when none does.
 *
 * @example
 * ```ts
 * import { awaitedCaptures } from "./websocket_await.ts";
 * import { Spelling } from "../spelling.ts";
 * import { ymap } from "../yaml_out.ts";
 * const got = awaitedCaptures(
 *   ymap([["count", 3]]),
 *   [["rev", { kind: "json", path: ["messages", 2, { key: "topic", value: "deploy" }, "rev"] }]],
 *   new Spelling("a"),
 * )!;
 * const keys = got.websocket.entries.map(([k]) => k).join();
 * if (keys !== "until,wait") throw new Error(keys);
 * if (got.websocket.entries[0][1] !== "$[*][?@.topic == 'deploy'].rev") throw new Error(String(got.websocket.entries[0][1]));
 * // A value read from a framed text message: the message that writes its key.
 * const framed = awaitedCaptures(ymap([["count", 2]]), [["ticket", { kind: "regex", name: "ticket", pattern: "x" }]], new Spelling("a"))!;
 * if (framed.websocket.entries[0][1] !== `$[?search(@, '"ticket":')]`) throw new Error(String(framed.websocket.entries[0][1]));
 * ```
 */
export function awaitedCaptures(
  websocket: YMap,
  captures: [string, Source][],
  sp: Spelling,
  received: unknown[] = [],
): { websocket: YMap; captures: [string, YNode][] } | undefined {
  let until: { at: number; path: string } | undefined;
  const nodes = captures.map(([name, source]): [string, YNode] => {
    if (source.kind === "regex") {
      // Read from a text message by its key (framed JSON, written once): the message writing it.
      until ??= { at: Infinity, path: `$[?search(@, '${keySearch(source.name)}')]` };
      return [name, sp.captureNode(source)];
    }
    const path = source.kind === "json" ? source.path : [];
    if (path[0] !== "messages" || path.length < 2) return [name, sp.captureNode(source)];
    const messages = sp.jsonPath(["messages"]);
    if (typeof path[1] !== "number") {
      // A filter over the messages already reads whichever holds it: wait for that one.
      until ??= { at: Infinity, path: `$${sp.jsonPath(path).slice(messages.length)}` };
      return [name, sp.captureNode(source)];
    }
    const prefix = sp.jsonPath(["messages", 0]);
    const tail = sp.jsonPath(["messages", 0, ...path.slice(2)]).slice(prefix.length);
    if (!until || path[1] > until.at) until = { at: path[1], path: `$[*]${tail}` };
    return [name, yflow([["path", `${messages}[*]${tail}`], ["first", true]])];
  });
  if (!until) return undefined;
  const kept = websocket.entries.filter(([key]) => key !== "count" && key !== "wait");
  const last = answeredLate(websocket, received) ? lastAnswer(received) : undefined;
  return {
    websocket: ymap([...kept, ["until", last ?? until.path], ["wait", AWAIT_WAIT]]),
    captures: nodes,
  };
}

/** Whether the client sent a message once others had come, and answers came after it. */
function answeredLate(websocket: YMap, received: unknown[]): boolean {
  const send = websocket.entries.find(([key]) => key === "send")?.[1];
  const items = Array.isArray(send) ? send as YMap[] : [];
  const afters = items.map((m) => m.entries?.find(([key]) => key === "after")?.[1])
    .filter((n): n is number => typeof n === "number");
  return afters.length > 0 && received.length > Math.max(...afters);
}

/**
 * A JSONPath `until` selecting the last received message: a word-valued
 * field of it (at the top, or one map down) that no earlier message has;
 * `undefined` when it is not a JSON map or no field tells it apart.
 */
function lastAnswer(received: unknown[]): string | undefined {
  const last = received.at(-1);
  if (!isMap(last)) return undefined;
  const earlier = received.slice(0, -1);
  const at = (m: unknown, path: string[]) =>
    path.reduce<unknown>((v, k) => isMap(v) ? v[k] : undefined, m);
  const fields: string[][] = [];
  for (const [k, v] of Object.entries(last)) {
    if (isMap(v)) fields.push(...Object.keys(v).map((inner) => [k, inner]));
    else fields.push([k]);
  }
  for (const path of fields) {
    const value = at(last, path);
    // A word of an enumeration (a type, a state), not an id or a time made for this message.
    if (typeof value !== "string" || !isStableValue(path.at(-1)!, value)) continue;
    if (earlier.some((m) => at(m, path) === value)) continue;
    if (!path.every((k) => /^[A-Za-z_]\w*$/.test(k))) continue;
    return `$[?@.${path.join(".")} == '${value}']`;
  }
  return undefined;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A JSONPath string literal (single-quoted) of a regular expression matching `"key":`. */
function keySearch(key: string): string {
  const pattern = `"${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}":`;
  return pattern.replace(/[\\']/g, "\\$&");
}
