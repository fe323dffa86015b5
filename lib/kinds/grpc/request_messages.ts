/**
 * A step's request messages checked against the method and encoded, once
 * per distinct message: the encoded bytes are kept per method by the
 * messages' JSON text, so a step that sends the same message again (every
 * attempt, poll and repeat of it, or another step alike) is not checked and
 * encoded again on every call.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { MethodCodec } from "./method.ts";
import { around, ownWords, type Told, told } from "../../model/told.ts";

/** The most messages kept per method; the oldest is dropped beyond it. */
const KEPT_PER_METHOD = 64;
/** Longer JSON is not kept: a large message would hold memory for a saving that is small beside it. */
const MAX_KEPT_CHARS = 16 * 1024;

const kept = new WeakMap<MethodCodec, Map<string, Buffer[]>>();

/** The messages of a step as rendered: the values, their JSON text, and whether written as a list. */
export interface RenderedMessages {
  values: unknown[];
  /** The values' JSON text, as reports show what was sent. */
  body: string;
  /** How the step wrote them; neither sends one empty message, whatever the method's shape. */
  written?: "message" | "messages";
}

/**
 * The messages encoded for `codec`, or a sentence when the step's shape is
 * not the method's or a message does not fit its type (what the message
 * held, quoted in the problem, a value of the sentence).
 *
 * @example
 * ```ts
 * import protobuf from "protobufjs";
 * import { findMethod } from "./method.ts";
 * import { requestMessages } from "./request_messages.ts";
 * import { tell } from "../../model/told.ts";
 * const root = protobuf.parse('syntax = "proto3"; message M { int32 n = 1; } service S { rpc Get(M) returns (M); }').root;
 * root.resolveAll();
 * const codec = findMethod(root, "S/Get");
 * if (typeof codec === "string") throw new Error(codec);
 * const sent = { values: [{ n: 5 }], body: '{"n":5}', written: "message" as const };
 * const a = requestMessages(codec, sent);
 * if ("words" in a || a[0].toString("hex") !== "0805") throw new Error(String(a));
 * if (requestMessages(codec, sent) !== a) throw new Error("the second is not kept");
 * const bad = requestMessages(codec, { ...sent, values: [{ n: "x" }], body: '{"n":"x"}' });
 * if (!("words" in bad) || tell(bad) !== 'The message for S/Get does not fit: Expected "message".n to be int32, got "x".') {
 *   throw new Error(String(bad));
 * }
 * ```
 */
export function requestMessages(codec: MethodCodec, sent: RenderedMessages): Buffer[] | Told {
  // NaN and Infinity write as null too: JSON text holding null does not name its values alone.
  const keep = sent.body.length <= MAX_KEPT_CHARS && !sent.body.includes("null");
  const key = `${sent.written} ${sent.body}`;
  let mine = kept.get(codec);
  const known = keep ? mine?.get(key) : undefined;
  if (known) return known;
  const encoded = encodedMessages(codec, sent);
  if ("words" in encoded || !keep) return encoded;
  if (!mine) kept.set(codec, mine = new Map());
  if (mine.size >= KEPT_PER_METHOD) mine.delete(mine.keys().next().value!);
  mine.set(key, encoded);
  return encoded;
}

/** Each message checked against the request type (and the method's shape) and encoded. */
function encodedMessages(codec: MethodCodec, sent: RenderedMessages): Buffer[] | Told {
  if (!codec.requestStream && sent.written === "messages") {
    return ownWords(`${codec.name} takes one message; write "message", not "messages".`);
  }
  if (codec.requestStream && sent.written === "message") {
    return ownWords(
      `${codec.name} takes a stream of messages; write "messages: [...]", not "message".`,
    );
  }
  const out: Buffer[] = [];
  for (const [i, value] of sent.values.entries()) {
    const at = sent.written === "messages" ? `"messages[${i}]"` : `"message"`;
    const got = codec.prepare(value, at);
    // The problem quotes what the message held: a value.
    if ("problem" in got) {
      return around(`The message for ${codec.name} does not fit: `, told`${got.problem}`, ".");
    }
    const bytes = codec.encode(got.value);
    // A view of protobufjs's bytes, not a copy: grpc-js copies them into its frame.
    out.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  return out;
}
