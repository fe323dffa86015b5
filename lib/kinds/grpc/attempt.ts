/**
 * One attempt of a `grpc:` step: the target, metadata and messages
 * rendered in the step's scope, the method from the `.proto` files (or the
 * server's reflection), one call on the target's shared client with the
 * step's timeout as its deadline, and its outcome.
 *
 * @module
 */
import type * as grpc from "@grpc/grpc-js";
import type { KindCall, KindNetwork, KindOutcome } from "../kind.ts";
import type { Told } from "../../model/told.ts";
import { clientFor, releaseClient } from "./channel.ts";

export { closeChannels } from "./channel.ts";
import { exchange, metadataOf } from "./exchange.ts";
import { outcomeOf } from "./outcome.ts";
import { binaryMetadata } from "./read_metadata.ts";
import { withProxyWords } from "./proxy_log.ts";
import { reflectedMethod } from "./reflected_method.ts";
import { type RenderedMessages, requestMessages } from "./request_messages.ts";
import type { GrpcSpec } from "./spec.ts";
import { type GrpcTarget, parseTarget } from "./target.ts";

/**
 * Runs the call once; never throws for the server's or the network's
 * fault (that is the outcome's `error`), only for an expression's.
 *
 * @example
 * ```ts
 * import { grpcAttempt } from "./attempt.ts";
 * if (typeof grpcAttempt !== "function") throw new Error();
 * ```
 */
export async function grpcAttempt(spec: GrpcSpec, call: KindCall): Promise<KindOutcome> {
  const targetText = call.text(spec.target);
  const target = parseTarget(targetText, spec.tls);
  const metadata = spec.metadata.map(([name, t]) => [name, call.text(t)] as [string, string]);
  const sent = sentMessages(spec, call);
  const method = spec.method.replace(/^[./]+/, "");
  const url = "words" in target ? targetText : `${target.url}/${method}`;
  const request = { method: "GRPC", url, headers: metadata, body: sent.body };
  if ("words" in target) return { request, error: { reason: "bad-url", message: target } };
  const binary = notBase64(metadata);
  if (binary) return { request, error: { reason: "bad-url", message: binary } };
  const net = call.network(target.url);
  const deadline = Date.now() + call.timeoutMs;
  const client = clientFor(target, net, call.maxBodyBytes);
  if ("words" in client) return { request, error: { reason: "bad-url", message: client } };
  try {
    const attempting = { spec, call, target, net, method, sent, request, metadata, deadline };
    const outcome = await attemptOn(client, attempting);
    return net.proxy ? withProxyWords(outcome, net.proxy, target.address) : outcome;
  } finally {
    releaseClient(client);
  }
}

/** What {@linkcode attemptOn} needs of the attempt. */
interface Attempting {
  spec: GrpcSpec;
  call: KindCall;
  target: GrpcTarget;
  net: KindNetwork;
  method: string;
  sent: RenderedMessages;
  request: KindOutcome["request"];
  metadata: [string, string][];
  deadline: number;
}

/** The call on `client`: its method (from the .proto files or reflection), sent and answered. */
async function attemptOn(
  client: grpc.Client,
  { spec, call, target, net, method, sent, request, metadata, deadline }: Attempting,
): Promise<KindOutcome> {
  const codec = spec.codec ?? await reflectedMethod({
    address: target.address,
    method,
    client,
    settings: JSON.stringify([target.tls, net, call.maxBodyBytes]),
    deadlineMs: call.timeoutMs,
    maxBytes: call.maxBodyBytes,
    metadata: metadataOf(metadata),
    signal: call.signal,
  });
  if (!("path" in codec)) return { request, error: codec };
  const messages = requestMessages(codec, sent);
  if ("words" in messages) {
    return { request, error: { reason: "bad-url", message: messages } };
  }
  const got = await exchange(client, {
    codec,
    messages,
    metadata,
    deadline,
    maxMessages: spec.maxMessages,
    maxBytes: call.maxBodyBytes,
    signal: call.signal,
  });
  return outcomeOf(got, {
    request,
    codec,
    deadline,
    timeoutMs: call.timeoutMs,
    maxBytes: call.maxBodyBytes,
    maxMessages: spec.maxMessages,
  });
}

/** The messages as rendered, and as reports show them: one message, or the list. */
function sentMessages(spec: GrpcSpec, call: KindCall): RenderedMessages {
  if (spec.messages) {
    const list = call.render(spec.messages);
    const values = Array.isArray(list) ? list : [list];
    return { values, body: JSON.stringify(list), written: "messages" };
  }
  const one = spec.message ? call.render(spec.message) : {};
  return {
    values: [one],
    body: JSON.stringify(one),
    ...(spec.message ? { written: "message" } : {}),
  };
}

/** The first sentence saying a `-bin` value an expression made is not base64. */
function notBase64(pairs: readonly [string, string][]): Told | undefined {
  for (const [name, value] of pairs) {
    const bytes = binaryMetadata(name, value);
    if (bytes && "words" in bytes) return bytes;
  }
  return undefined;
}
