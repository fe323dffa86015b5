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
 * the step keeps the `until` that awaits each kind of them
 * (`har_websocket_answers.ts`; Jupyter's kernel socket: the `execute_request`
 * sent once the `kernel_info_reply` a save reads had come, answered by
 * `execute_result` and `execute_reply`): stopped at the captured message,
 * the step sent the request and closed the socket at once.
 *
 * @module
 */
import type { Source } from "../model.ts";
import type { Spelling } from "../spelling.ts";
import { yflow, type YMap, ymap, type YNode } from "../yaml_out.ts";
import { escapeRegExp } from "../../_util/regex_escape.ts";

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
  // The answers to a turn the step already awaits (websocket_step.ts) come after what it captures.
  const answers = websocket.entries.find(([key]) => key === "until")?.[1];
  const kept = websocket.entries.filter(([key]) => !["count", "wait", "until"].includes(key));
  return {
    websocket: ymap([...kept, ["until", answers ?? until.path], ["wait", AWAIT_WAIT]]),
    captures: nodes,
  };
}

/** A JSONPath string literal (single-quoted) of a regular expression matching `"key":`. */
function keySearch(key: string): string {
  const pattern = `"${escapeRegExp(key)}":`;
  return pattern.replace(/[\\']/g, "\\$&");
}
