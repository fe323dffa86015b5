/**
 * The method a gRPC step calls, found in its parsed `.proto` files (or in
 * the same files from server reflection), as a {@linkcode MethodCodec}: its
 * path, its streaming shape, and how its messages are checked, encoded and
 * decoded in the proto3 JSON mapping.
 *
 * @module
 */
import protobuf from "protobufjs";
import { suggest } from "../../_util/suggest.ts";
import { messageInput } from "./message_input.ts";
import { decodeMessage } from "./message_output.ts";

/** A method, ready to call: what grpc-js needs and what the step's messages are checked against. */
export interface MethodCodec {
  /** `package.Service/Method`. */
  name: string;
  /** `/package.Service/Method`, the HTTP/2 path grpc-js sends. */
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  /** The request message type's full name. */
  requestType: string;
  /** The response message type's full name. */
  responseType: string;
  /** A request message checked and made ready for {@linkcode MethodCodec.encode}, or a sentence. */
  prepare(value: unknown, at: string): { value: unknown } | { problem: string };
  encode(value: unknown): Uint8Array;
  /** The message in its JSON form; throws when the bytes do not decode as the response type. */
  decode(bytes: Uint8Array): unknown;
}

/**
 * `package.Service/Method` (or `package.Service.Method`) in `root`, or a
 * sentence naming the nearest service or method it has.
 *
 * @example
 * ```ts
 * import protobuf from "protobufjs";
 * import { findMethod } from "./method.ts";
 * const root = protobuf.parse('syntax = "proto3"; package p; message M {} service S { rpc Get(M) returns (M); }').root;
 * root.resolveAll();
 * const m = findMethod(root, "p.S/Get");
 * if (typeof m === "string" || m.path !== "/p.S/Get") throw new Error();
 * const near = findMethod(root, "p.S/Gte");
 * if (typeof near !== "string" || !near.includes('"Get"')) throw new Error(String(near));
 * ```
 */
export function findMethod(root: protobuf.Root, name: string): MethodCodec | string {
  // The same codec for the same root and name: a flow is read again before it runs, and what
  // is kept per codec (request_messages.ts) then serves the run too.
  let mine = FOUND.get(root);
  if (!mine) FOUND.set(root, mine = new Map());
  let found = mine.get(name);
  if (found === undefined) mine.set(name, found = lookupMethod(root, name));
  return found;
}

/** Each root's methods by the name asked for (a root's names are few: no bound needed). */
const FOUND = new WeakMap<protobuf.Root, Map<string, MethodCodec | string>>();

function lookupMethod(root: protobuf.Root, name: string): MethodCodec | string {
  const split = splitName(name);
  if (!split) return `Expected the method as package.Service/Method, got "${name}".`;
  const [serviceName, methodName] = split;
  const found = root.lookup(serviceName);
  if (!(found instanceof protobuf.Service)) {
    const services = servicesOf(root);
    const near = suggest(serviceName, services);
    return `No service ${serviceName} in the .proto files; ${
      near ? `did you mean ${near}? ` : ""
    }they have ${services.join(", ") || "no service"}.`;
  }
  const method = found.methods[methodName];
  if (!method) {
    const names = Object.keys(found.methods);
    const near = suggest(methodName, names);
    return `No method "${methodName}" in service ${serviceName}; ${
      near ? `did you mean "${near}"? ` : ""
    }it has ${names.map((n) => `"${n}"`).join(", ") || "no method"}.`;
  }
  method.resolve();
  return protobufCodec(serviceName, method);
}

function protobufCodec(service: string, method: protobuf.Method): MethodCodec {
  const request = method.resolvedRequestType!;
  const response = method.resolvedResponseType!;
  return {
    name: `${service}/${method.name}`,
    path: `/${service}/${method.name}`,
    requestStream: method.requestStream === true,
    responseStream: method.responseStream === true,
    requestType: request.fullName.replace(/^\./, ""),
    responseType: response.fullName.replace(/^\./, ""),
    prepare: (value, at) => messageInput(request, value, at),
    encode: (value) =>
      request.encode(request.fromObject(value as Record<string, unknown>)).finish(),
    decode: (bytes) => decodeMessage(response, bytes),
  };
}

/** `[service, method]` of `p.S/M` or `p.S.M`, without a leading dot or slash. */
function splitName(name: string): [string, string] | undefined {
  const trimmed = name.replace(/^[./]+/, "");
  const at = trimmed.includes("/") ? trimmed.lastIndexOf("/") : trimmed.lastIndexOf(".");
  if (at <= 0 || at === trimmed.length - 1) return undefined;
  return [trimmed.slice(0, at), trimmed.slice(at + 1)];
}

function servicesOf(ns: protobuf.NamespaceBase, out: string[] = []): string[] {
  for (const item of ns.nestedArray) {
    if (item instanceof protobuf.Service) out.push(item.fullName.replace(/^\./, ""));
    else if (item instanceof protobuf.Namespace) servicesOf(item, out);
  }
  return out;
}
