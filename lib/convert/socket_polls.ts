/**
 * Long-polls of a session that moved to a WebSocket. Engine.IO (Socket.IO)
 * and other transports that start polling and upgrade keep polling while the
 * socket is probed, on the same endpoint with the same session in the query.
 * A poll sent after the socket opened was answered by what the socket did:
 * the upgrade (`5`) released it with a noop, or it carried a packet that the
 * socket would have carried a moment later. Replayed as a step, such a poll
 * either waits out the server's ping (25 s) for an upgrade the socket's step
 * makes later or never, or splits the socket's conversation: the socket's
 * step stops where the next request began (`har_websocket.ts`), before the
 * acknowledgement a later request reads. So it is dropped, unless its answer
 * hands out a value a later request sends (then it is kept, and answered by
 * the replay as it was recorded).
 *
 * @module
 */
import { framedValues } from "./framed_json.ts";
import type { HarRecord } from "./har_model.ts";
import { isReplayableWebSocket, isWebSocket } from "./har_websocket.ts";
import { walk } from "./json.ts";

/** The reason counted in the summary for a dropped poll. */
export const SOCKET_POLL = "poll beside its WebSocket";

/** The shortest value taken as handed out and sent back (shorter: words, flags, counts). */
const MIN_VALUE = 6;

/**
 * `ordered` without the polls a socket of the same session replaced, and the
 * note on them (none when none was dropped).
 *
 * @example
 * ```ts
 * import { dropSocketPolls } from "./socket_polls.ts";
 * import type { HarRecord } from "./har_model.ts";
 * const r = (url: string, started: number, text = "", messages?: unknown[]) =>
 *   ({ method: "GET", url: new URL(url), started, headers: [], responseText: text, hasJson: false,
 *     status: messages ? 101 : 200, raw: messages ? { _webSocketMessages: messages } : {} }) as unknown as HarRecord;
 * const open = r("http://a.test/socket.io/?EIO=4&transport=polling", 0, '0{"sid":"x0veS2nylCjZPmFnAAAA"}');
 * const q = "/socket.io/?EIO=4&sid=x0veS2nylCjZPmFnAAAA";
 * const ws = r(`ws://a.test${q}&transport=websocket`, 10, "", [{ type: "send", opcode: 1, data: "2probe" }]);
 * const held = r(`http://a.test${q}&transport=polling`, 20, "6");
 * const { kept, note } = dropSocketPolls([open, ws, held]);
 * if (kept.length !== 2 || !note?.includes("GET /socket.io/")) throw new Error(note);
 * ```
 */
export function dropSocketPolls(
  ordered: HarRecord[],
): { kept: HarRecord[]; dropped: number; note?: string } {
  const sockets = ordered.filter(isReplayableWebSocket);
  if (sockets.length === 0) return { kept: ordered, dropped: 0 };
  const dropped = new Set<HarRecord>();
  ordered.forEach((r, i) => {
    if (r.method !== "GET" || isWebSocket(r) || r.started === undefined) return;
    const before = ordered.slice(0, i);
    if (!sockets.some((w) => w.started! < r.started! && sameSession(w, r, before))) return;
    if (!handsOutSent(r, ordered.slice(i + 1))) dropped.add(r);
  });
  if (dropped.size === 0) return { kept: ordered, dropped: 0 };
  const paths = [...new Set([...dropped].map((r) => `GET ${r.url.pathname}`))].join(", ");
  return {
    kept: ordered.filter((r) => !dropped.has(r)),
    dropped: dropped.size,
    note: `Dropped ${dropped.size} ${dropped.size === 1 ? "poll" : "polls"} (${paths}) ` +
      `the page sent while the WebSocket of the same session was open: the socket's step ` +
      `carries the session, and replayed such a poll waits for an upgrade it makes later.`,
  };
}

/**
 * Whether `poll` is on the socket's endpoint (its host and path, either
 * scheme) and sends a query value the socket's URL sends too that an earlier
 * answer issued: the session (Engine.IO's `sid`), not a setting of the page
 * (`client=webapp`).
 */
function sameSession(socket: HarRecord, poll: HarRecord, before: HarRecord[]): boolean {
  if (socket.url.host !== poll.url.host || socket.url.pathname !== poll.url.pathname) {
    return false;
  }
  const session = new Set(
    [...socket.url.searchParams.values()].filter((v) => v.length >= MIN_VALUE),
  );
  return [...poll.url.searchParams.values()].some((v) =>
    session.has(v) && before.some((b) => b.responseText?.includes(v))
  );
}

/** Whether a value of `r`'s answer is sent by one of the `later` records. */
function handsOutSent(r: HarRecord, later: HarRecord[]): boolean {
  const values = answerValues(r);
  if (values.length === 0) return false;
  const sent = later.map(sentText).join("\n");
  return values.some((v) => sent.includes(v));
}

/** The string and number values of an answer: its JSON's, or its framed JSON's. */
function answerValues(r: HarRecord): string[] {
  const out: string[] = [];
  if (r.hasJson) {
    walk(r.json, (_p, _k, leaf) => {
      if (typeof leaf === "string" || typeof leaf === "number") out.push(String(leaf));
    });
  } else if (r.responseText) {
    out.push(...framedValues(r.responseText, false).map((v) => v.value));
  }
  return out.filter((v) => v.length >= MIN_VALUE);
}

/** What a record sends, as text: its URL (decoded too), headers, body and socket messages. */
function sentText(r: HarRecord): string {
  const messages = r.raw._webSocketMessages;
  const frames = Array.isArray(messages)
    ? messages.map((m) => (m as { type?: unknown; data?: unknown }))
      .filter((m) => m.type === "send" && typeof m.data === "string").map((m) => m.data)
    : [];
  let decoded = r.url.href;
  try {
    decoded = decodeURIComponent(r.url.href);
  } catch {
    // A malformed escape: the URL as recorded still holds the value if it was sent plainly.
  }
  return [r.url.href, decoded, ...r.headers.map((h) => h.value), r.bodyText ?? "", ...frames]
    .join("\n");
}
