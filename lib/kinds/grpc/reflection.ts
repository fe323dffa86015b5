/**
 * A service's definition from the server itself, by gRPC server reflection,
 * when a flow names no `.proto` files: the file that defines the service,
 * every file it imports (asked for by name when the server did not send it
 * along), made into the same {@linkcode PackageDefinition} that `.proto`
 * files make.
 *
 * @module
 */
import * as grpc from "@grpc/grpc-js";
import { around, joined, ownWords, type Told, told } from "../../model/told.ts";
import { fromJSON, type PackageDefinition } from "@grpc/proto-loader";
import protobuf from "protobufjs";
import { ReflectionError } from "./reflection_error.ts";
import { ReflectionFiles } from "./reflection_files.ts";
import { REFLECTION_METHODS, type ReflectionResponse } from "./reflection_messages.ts";
import { ReflectionStream, type StreamLimits } from "./reflection_stream.ts";

export { ReflectionError, type ReflectionErrorCode } from "./reflection_error.ts";

/** How reflection reaches the server and how far it may go. */
export interface ReflectionOptions {
  /**
   * The channel's credentials: insecure (h2c, when not given) or TLS with
   * the run's CAs and client certificate; unused when `client` is given.
   */
  credentials?: grpc.ChannelCredentials;
  /** The time the whole exchange may take, in ms (the step's timeout). */
  deadlineMs: number;
  /** Aborts at once (SIGINT, `--fail-fast`). */
  signal?: AbortSignal;
  /** Sent with the stream's headers (an `authorization` a server asks for reflection too). */
  metadata?: grpc.Metadata;
  /** The most bytes all answers together may hold; 4 MiB (gRPC's own limit for one message) unless set. */
  maxBytes?: number;
  /** The most files the service and its imports may count; 200 unless set. */
  maxFiles?: number;
  /** Further channel options (a proxy, a TLS server name), as for the call itself. */
  channelOptions?: grpc.ChannelOptions;
  /**
   * The client to ask on instead of a new one: the call's own, so its proxy
   * tunnel, TLS settings and connection serve reflection too. It is left
   * open; `credentials` and `channelOptions` are not used, and one answer
   * is bounded by the client's own receive limit.
   */
  client?: grpc.Client;
}

/**
 * How the definition reads messages: proto3's JSON mapping (enums by name,
 * 64-bit integers as strings, `bytes` as base64), every field present, the
 * name of the set member of each `oneof`.
 */
const DEFINITION_OPTIONS = {
  longs: String,
  enums: String,
  bytes: String,
  defaults: true,
  oneofs: true,
};
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_FILES = 200;
// Listing every service a server offers in a message would drown the name
// that was meant; the first few say enough.
const LISTED_SERVICES = 20;

/**
 * The definition of the service `symbol` (`atlas.Atlas`) as the
 * server at `target` (`host:port`) describes it by server reflection (`v1`,
 * or `v1alpha` when the server answers `v1` with UNIMPLEMENTED). Messages
 * read as proto3's JSON mapping: enums by name, 64-bit integers and `bytes`
 * (base64) as strings, defaults present, `oneof`s named. Rejects with a
 * {@linkcode ReflectionError} whose message is one sentence naming the server.
 *
 * @example
 * ```ts
 * import * as grpc from "@grpc/grpc-js";
 * import { ReflectionError, reflectedDefinition } from "./reflection.ts";
 * // Port 1 on the loopback refuses connections.
 * const options = { credentials: grpc.credentials.createInsecure(), deadlineMs: 5000 };
 * try {
 *   await reflectedDefinition("127.0.0.1:1", "atlas.Atlas", options);
 *   throw new Error("port 1 answered");
 * } catch (error) {
 *   if (!(error instanceof ReflectionError) || error.code !== "unreachable") throw error;
 *   if (!error.message.startsWith("The server at 127.0.0.1:1 could not be reached")) throw error;
 * }
 * ```
 */
export async function reflectedDefinition(
  target: string,
  symbol: string,
  options: ReflectionOptions,
): Promise<PackageDefinition> {
  const root = await reflectedRoot(target, symbol, options);
  return fromJSON(root.toJSON(), DEFINITION_OPTIONS);
}

/**
 * The same files as {@linkcode reflectedDefinition}'s, as a protobufjs
 * `Root` that reads messages as the same `.proto` files parsed by protobufjs
 * do (lowerCamelCase field names, maps as maps): a caller that encodes and
 * decodes with protobufjs itself treats both sources alike.
 *
 * @example
 * ```ts
 * import * as grpc from "@grpc/grpc-js";
 * import { ReflectionError, reflectedRoot } from "./reflection.ts";
 * const controller = new AbortController();
 * controller.abort();
 * const options = { credentials: grpc.credentials.createInsecure(), deadlineMs: 5000 };
 * try {
 *   await reflectedRoot("127.0.0.1:1", "p.S", { ...options, signal: controller.signal });
 *   throw new Error("an aborted signal was ignored");
 * } catch (error) {
 *   if (!(error instanceof ReflectionError) || error.code !== "interrupted") throw error;
 * }
 * ```
 */
export async function reflectedRoot(
  target: string,
  symbol: string,
  options: ReflectionOptions,
): Promise<protobuf.Root> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const limits: StreamLimits = {
    target,
    maxBytes,
    deadlineMs: options.deadlineMs,
    deadline: Date.now() + options.deadlineMs,
    signal: options.signal,
    metadata: options.metadata,
  };
  const credentials = options.credentials ?? grpc.credentials.createInsecure();
  const client = options.client ?? new grpc.Client(target, credentials, {
    ...options.channelOptions,
    // One answer past the bound is refused by gRPC before it is buffered whole.
    "grpc.max_receive_message_length": maxBytes,
  });
  const service = symbol.replace(/^\./, "");
  try {
    for (const [index, method] of REFLECTION_METHODS.entries()) {
      const stream = new ReflectionStream(client, method, limits);
      try {
        return await reflect(stream, service, limits, options.maxFiles ?? DEFAULT_MAX_FILES);
      } catch (error) {
        const older = index + 1 < REFLECTION_METHODS.length;
        if (older && error instanceof ReflectionError && error.code === "no-reflection") continue;
        throw error;
      } finally {
        stream.close();
      }
    }
    throw new Error("unreachable: the last method rethrows");
  } finally {
    if (client !== options.client) client.close();
  }
}

/** The exchange on one stream: the service's file, its imports, the definition. */
async function reflect(
  stream: ReflectionStream,
  symbol: string,
  limits: StreamLimits,
  maxFiles: number,
): Promise<protobuf.Root> {
  const { target } = limits;
  const files = new ReflectionFiles(target, symbol, maxFiles);
  const first = await stream.ask({ fileContainingSymbol: symbol });
  if (first.errorResponse?.errorCode === grpc.status.NOT_FOUND) {
    throw await unknownService(stream, target, symbol, "");
  }
  files.add(filesOf(first, target, `"${symbol}"`), `"${symbol}"`);
  for (let next = files.nextMissing(); next; next = files.nextMissing()) {
    const answer = await stream.ask({ fileByFilename: next.name });
    const missing =
      told`The server at ${target} does not send "${next.name}", which "${next.by}" imports`;
    if (answer.errorResponse) {
      throw new ReflectionError(
        "missing-file",
        joined(missing, ownWords(" ("), errorText(answer), ownWords(").")),
      );
    }
    files.add(filesOf(answer, target, `"${next.name}"`), `"${next.name}"`);
    if (!files.has(next.name)) {
      throw new ReflectionError(
        "missing-file",
        joined(missing, ownWords(": it answered with other files.")),
      );
    }
  }
  const root = files.root();
  const found = root.lookup(symbol);
  if (found && !(found instanceof protobuf.Service)) {
    throw await unknownService(stream, target, symbol, ` (it is ${whatItIs(found)})`);
  }
  if (!found) {
    throw new ReflectionError(
      "bad-descriptor",
      joined(
        told`The server at ${target} said which file defines "${symbol}", `,
        ownWords(`but the ${files.count} files it sent do not define it.`),
      ),
    );
  }
  return root;
}

/** What a name that is not a service names, for the sentence saying so. */
function whatItIs(found: protobuf.ReflectionObject): string {
  if (found instanceof protobuf.Type) return "a message type";
  if (found instanceof protobuf.Enum) return "an enum";
  if (found instanceof protobuf.Method) return "a method";
  if (found instanceof protobuf.Field) return "a field";
  return found instanceof protobuf.OneOf ? "a oneof" : "a package";
}

/** The files of an answer; a sentence when the server answered with an error instead. */
function filesOf(answer: ReflectionResponse, target: string, asked: string): Uint8Array[] {
  const files = answer.fileDescriptorResponse?.fileDescriptorProto;
  if (files) return files;
  throw new ReflectionError(
    "reflection-failed",
    joined(
      told`The server at ${target} answered the question for ${asked} `,
      answer.errorResponse
        ? around("with an error (", errorText(answer), ").")
        : ownWords("without any file."),
    ),
  );
}

/** The error an answer carries: the status's name (flowrun's word for its code), the server's message. */
function errorText(answer: ReflectionResponse): Told {
  const { errorCode, errorMessage } = answer.errorResponse!;
  const name = grpc.status[errorCode] ?? `code ${errorCode}`;
  return errorMessage ? around(`${name}: `, told`${errorMessage}`, "") : ownWords(name);
}

/** The "knows no service" sentence, with the services the server lists. */
async function unknownService(
  stream: ReflectionStream,
  target: string,
  symbol: string,
  why: string,
): Promise<ReflectionError> {
  const head = joined(told`The server at ${target} knows no service "${symbol}"`, ownWords(why));
  let names: string[] = [];
  try {
    const answer = await stream.ask({ listServices: "" });
    names = (answer.listServicesResponse?.service ?? []).map((s) => s.name)
      // The reflection services themselves are not what a flow calls.
      .filter((name) => !name.startsWith("grpc.reflection."));
  } catch (error) {
    // A stream that failed meanwhile (the deadline) says so instead.
    if (error instanceof ReflectionError && error.code !== "reflection-failed") throw error;
  }
  if (names.length === 0) return new ReflectionError("unknown-symbol", joined(head, ownWords(".")));
  // The services the server lists are its words: values.
  const listed = names.slice(0, LISTED_SERVICES).join(", ");
  const more = names.length > LISTED_SERVICES ? ` and ${names.length - LISTED_SERVICES} more` : "";
  return new ReflectionError(
    "unknown-symbol",
    joined(head, told`; it offers ${listed}`, ownWords(`${more}.`)),
  );
}
