/**
 * Reads the map under a step's `grpc:` key into a {@linkcode GrpcSpec},
 * every mistake one positioned problem before anything is sent: a target
 * that is not `host:port`, a `.proto` that does not parse, a method the
 * files do not have (naming the nearest), `message` where the method takes
 * a stream or `messages` where it takes one, a constant message with a
 * field its type does not have.
 *
 * @module
 */
import type { Node } from "yaml";
import type protobuf from "protobufjs";
import { isConstant } from "../../expr/parse.ts";
import type { Template, ValueTemplate } from "../../model/template.ts";
import type { KindEntry, KindReading } from "../kind.ts";
import { findMethod, type MethodCodec } from "./method.ts";
import { readMetadata } from "./read_metadata.ts";
import { readProtos } from "./read_protos.ts";
import { constantValue, DEFAULT_MAX_MESSAGES, type GrpcSpec, MAX_MESSAGES } from "./spec.ts";
import { parseTarget } from "./target.ts";
import { tell } from "../../model/told.ts";

/** The keys a `grpc:` map may hold. */
export const GRPC_KEYS = [
  "target",
  "tls",
  "proto",
  "import_paths",
  "method",
  "message",
  "messages",
  "metadata",
  "max_messages",
] as const;

/**
 * A `grpc:` map read and checked: its spec, or `undefined` after problems.
 *
 * @example
 * ```ts
 * import { readGrpc } from "./read.ts";
 * if (typeof readGrpc !== "function") throw new Error();
 * ```
 */
export function readGrpc(map: Map<string, KindEntry>, reading: KindReading): GrpcSpec | undefined {
  const target = readTarget(map, reading);
  const tls = readTls(map.get("tls"), reading);
  const methodEntry = map.get("method");
  const method = methodEntry && reading.string(methodEntry, `"method" of a grpc step`);
  const proto = map.get("proto");
  const found = proto && method ? readMethod(map, proto, method, reading) : undefined;
  const codec = found?.codec;
  const messages = readMessages(map, reading, codec);
  const metadata = readMetadata(map.get("metadata")?.value, reading);
  const maxMessages = readMax(map.get("max_messages"), reading);
  if (!target || tls === undefined || !method || !messages || !metadata) return undefined;
  if (maxMessages === undefined || (proto && !codec)) return undefined;
  return { target, tls, method, ...found, ...messages, metadata, maxMessages };
}

/** The method in the step's `.proto` files and their root, or `undefined` after a problem. */
function readMethod(
  map: Map<string, KindEntry>,
  proto: KindEntry,
  method: string,
  reading: KindReading,
): { codec: MethodCodec; root: protobuf.Root } | undefined {
  const root = readProtos(proto, map.get("import_paths"), reading);
  if (!root) return undefined;
  const found = findMethod(root, method);
  if (typeof found !== "string") return { codec: found, root };
  const hint = "Name a method of the .proto files as package.Service/Method.";
  reading.problem("bad-grpc-method", found, map.get("method")!.value, hint);
  return undefined;
}

function readMax(entry: KindEntry | undefined, reading: KindReading): number | undefined {
  if (!entry) return DEFAULT_MAX_MESSAGES;
  return reading.integer(entry, `"max_messages" of a grpc step`, 1, MAX_MESSAGES);
}

function readTarget(map: Map<string, KindEntry>, reading: KindReading): Template | undefined {
  const entry = map.get("target");
  const template = entry && reading.template(entry.value, `"target" of a grpc step`);
  if (!template || !isConstant(template)) return template;
  const parsed = parseTarget(template.source, false);
  if (!("words" in parsed)) return template;
  reading.problem(
    "bad-url",
    // The flow's own constant, before anything is sent: its text as written.
    tell(parsed),
    entry!.value,
    "Write host:port, grpc://host:port or grpcs://host:port.",
  );
  return undefined;
}

function readTls(entry: KindEntry | undefined, reading: KindReading): boolean | undefined {
  if (!entry) return false;
  const value = reading.plain(entry.value);
  if (typeof value === "boolean") return value;
  reading.problem(
    "wrong-type",
    `Expected "tls" of a grpc step to be true or false, got ${JSON.stringify(value)}.`,
    entry.value,
    "Write tls: true, or a grpcs:// target.",
  );
  return undefined;
}

/** `message` or `messages`, fitting the method's shape when the `.proto` files tell it. */
function readMessages(
  map: Map<string, KindEntry>,
  reading: KindReading,
  codec: MethodCodec | undefined,
): { message?: ValueTemplate; messages?: ValueTemplate } | undefined {
  const one = map.get("message");
  const many = map.get("messages");
  if (one && many) {
    reading.problem(
      "conflicting-keys",
      `A grpc step holds "message" or "messages", not both.`,
      many.keyNode,
      "Write message: for one request message, messages: [...] for a stream of them.",
    );
    return undefined;
  }
  if (codec && (codec.requestStream ? one : many)) {
    const shape = codec.requestStream ? "a stream of messages" : "one message";
    reading.problem(
      "bad-grpc-message",
      `${codec.name} takes ${shape}, but the step has "${one ? "message" : "messages"}".`,
      (one ?? many)!.keyNode,
      codec.requestStream ? "Write messages: [ {...}, {...} ]." : "Write message: { ... }.",
    );
    return undefined;
  }
  if (many) return readList(many, reading, codec);
  if (!one) return {};
  const message = reading.value(one.value);
  if (!message) return undefined;
  return checked(codec, message, one.value, "message", reading) ? { message } : undefined;
}

function readList(
  entry: KindEntry,
  reading: KindReading,
  codec: MethodCodec | undefined,
): { messages: ValueTemplate } | undefined {
  const messages = reading.value(entry.value);
  if (!messages) return undefined;
  // A list all constant is compiled as one constant; its items are checked one by one all the same.
  const items: ValueTemplate[] | undefined = messages.kind === "list"
    ? messages.items
    : messages.kind === "const" && Array.isArray(messages.value)
    ? messages.value.map((value) => ({ kind: "const", value }))
    : undefined;
  if (items) {
    const nodes = (entry.value as { items?: Node[] }).items ?? [];
    const ok = items.map((item, i) =>
      checked(codec, item, nodes[i] ?? entry.value, `messages[${i}]`, reading)
    );
    return ok.every(Boolean) ? { messages } : undefined;
  }
  if (messages.kind === "template") return { messages };
  reading.problem(
    "wrong-type",
    `Expected "messages" of a grpc step to be a list of messages, got ${
      JSON.stringify(reading.plain(entry.value))
    }.`,
    entry.value,
    "Write messages: [ {...}, {...} ], or one ${…} that gives a list.",
  );
  return undefined;
}

/** A constant message checked against the request type now; one with `${…}` when it is sent. */
function checked(
  codec: MethodCodec | undefined,
  value: ValueTemplate,
  node: Node | null,
  what: string,
  reading: KindReading,
): boolean {
  if (!codec || !constantValue(value)) return true;
  const got = codec.prepare(reading.plain(node), `"${what}"`);
  if ("value" in got) return true;
  reading.problem(
    "bad-grpc-message",
    `${got.problem}.`,
    node,
    `Write the fields of ${codec.requestType}.`,
  );
  return false;
}
