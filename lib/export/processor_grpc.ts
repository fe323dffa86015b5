/**
 * The processor's gRPC call, as lib/kinds/grpc makes it: the method found
 * by its path in the step's root (`protos/N.json` beside the script, read
 * once per process by proto-loader's `fromJSON` with the options flowrun's
 * messages are shown with: enums by name, 64-bit integers as strings,
 * `bytes` as base64, defaults filled, the set oneof named), the step's
 * metadata, the step's timeout as the deadline; a unary method takes
 * grpc-js's unary call, every other shape one bidirectional stream (the
 * server holds each side to its count), as in `flowrun run`. The response
 * is the status code, the headers and trailers merged with `grpc-status`
 * and `grpc-message`, and the message (or the stream's list) as its JSON
 * body. UNAVAILABLE and the deadline passing reject, as flowrun's network
 * errors and timeouts; more than `max_messages` cancels the call and
 * fails the step. Messages are in the proto3 JSON mapping both ways,
 * well-known types included (processor_grpc_json.ts).
 *
 * `@grpc/grpc-js` and `@grpc/proto-loader` come from beside the script or
 * else from Artillery's own dependencies; each call opens its own channel
 * and closes it after.
 *
 * @module
 */

/**
 * The JavaScript of `grpcExchange(spec, timeoutMs, tls)`.
 *
 * @example
 * ```ts
 * import { GRPC_SOURCE } from "./processor_grpc.ts";
 * if (!GRPC_SOURCE.includes("function grpcExchange(spec, timeoutMs, tls)")) throw new Error();
 * ```
 */
export const GRPC_SOURCE = `
/** proto-loader's options: the proto3 JSON mapping flowrun shows messages in. */
const GRPC_OBJECT = { longs: String, enums: String, bytes: String, defaults: true, oneofs: true, json: true };
/** Each root's JSON, by its file. */
const grpcDefinitions = new Map();

/** A step's protos/N.json, read once per process. */
function grpcProtosJson(spec) {
  let json = grpcDefinitions.get(spec.protos);
  if (!json) {
    const { readFileSync, existsSync } = require("node:fs");
    const path = require("node:path");
    const beside = path.join(__dirname, spec.protos);
    json = JSON.parse(readFileSync(existsSync(beside) ? beside : path.resolve(spec.protos), "utf8"));
    grpcDefinitions.set(spec.protos, json);
  }
  return json;
}

/** grpc-js, proto-loader and protobufjs (with its descriptor extension, for reflection). */
function grpcModules() {
  const grpc = optionalModule("@grpc/grpc-js");
  const loader = optionalModule("@grpc/proto-loader");
  const protobuf = loader && optionalModule("protobufjs");
  const descriptor = protobuf && optionalModule("protobufjs/ext/descriptor");
  if (!grpc || !loader || !protobuf || !descriptor) {
    throw new Error("no gRPC client: run npm install @grpc/grpc-js @grpc/proto-loader beside the script");
  }
  return { grpc, loader, protobuf, descriptor };
}

/** Each root JSON's methods, by path: a definition is made once per process, not per call. */
const grpcMethods = new WeakMap();

/** The method the step calls, its messages in the proto3 JSON mapping, from a root's JSON. */
function grpcMethod(spec, modules, json, from) {
  const known = grpcMethods.get(json) || new Map();
  grpcMethods.set(json, known);
  if (!known.has(spec.path)) known.set(spec.path, grpcFindMethod(spec, modules, json, from));
  return known.get(spec.path);
}

function grpcFindMethod(spec, modules, json, from) {
  const definition = modules.loader.fromJSON(json, GRPC_OBJECT);
  const root = modules.protobuf.Root.fromJSON(json);
  for (const service of Object.values(definition)) {
    if (!service || service.format) continue;
    for (const method of Object.values(service)) {
      if (method && method.path === spec.path) return grpcJsonMethod(method, root, spec.path);
    }
  }
  throw new Error("The method " + spec.path + " is not in " + from + ".");
}

/** host:port and whether TLS is used, from host:port, grpc:// or grpcs://. */
function grpcTarget(spec) {
  const scheme = /^grpcs?:\\/\\//i.exec(spec.target);
  const address = (scheme ? spec.target.slice(scheme[0].length) : spec.target).replace(/\\/+$/, "");
  if (!/^(\\[[0-9a-fA-F:.]+\\]|[A-Za-z0-9_.-]+):\\d{1,5}$/.test(address)) {
    throw new Error("Expected the gRPC target to be host:port, grpc://host:port or grpcs://host:port, got " +
      JSON.stringify(spec.target) + ".");
  }
  return { address, tls: spec.tls || /^grpcs/i.test(spec.target) };
}

/** Headers and trailers merged, binary values as base64, and the status as gRPC sends it. */
function grpcHeaders(headers, status) {
  const out = {};
  for (const metadata of [headers, status.metadata]) {
    if (!metadata) continue;
    for (const [name, values] of Object.entries(metadata.toJSON())) {
      for (const v of values) {
        const value = typeof v === "string" ? v : Buffer.from(v).toString("base64");
        out[name] = out[name] === undefined ? value : out[name] + ", " + value;
      }
    }
  }
  out["grpc-status"] = String(status.code);
  out["grpc-message"] = status.details || "";
  return out;
}

/** Starts the call: a unary one, or one bidirectional stream with the messages written. */
function grpcStart(client, method, spec, metadata, deadline, on) {
  const { path, requestSerialize, responseDeserialize } = method;
  const sent = spec.messages === undefined ? [spec.message === undefined ? {} : spec.message]
    : Array.isArray(spec.messages) ? spec.messages : [spec.messages];
  if (!method.requestStream && !method.responseStream) {
    const call = client.makeUnaryRequest(path, requestSerialize, responseDeserialize, sent[0], metadata,
      { deadline }, (_error, message) => on.done(message === undefined ? [] : [message]));
    return { call, sent: 1 };
  }
  const call = client.makeBidiStreamRequest(path, requestSerialize, responseDeserialize, metadata, { deadline });
  call.on("data", on.data);
  call.on("end", () => on.done([]));
  call.on("error", () => on.done([]));
  for (const message of sent) call.write(message);
  call.end();
  return { call, sent: sent.length };
}

/**
 * The channel's credentials: insecure (h2c), or TLS with the step's CAs
 * (the system's and its own), client certificate and insecure, as flowrun's
 * gRPC channel takes them.
 */
function grpcCredentials(grpc, secure, tls) {
  if (!secure) return grpc.credentials.createInsecure();
  const pem = (value) => value ? Buffer.from([].concat(value).join("\\n")) : null;
  const t = tls || {};
  const verify = t.rejectUnauthorized === false ? { checkServerIdentity: () => undefined, rejectUnauthorized: false } : {};
  return grpc.credentials.createSsl(pem(t.ca), pem(t.key), pem(t.cert), verify);
}

/**
 * The step's metadata as grpc-js sends it: a \`-bin\` name's value is the
 * bytes its base64 stands for (grpc-js base64-encodes them on the wire), as
 * \`flowrun run\` sends it; a value that is not base64 throws run's sentence.
 */
function grpcMetadata(grpc, pairs) {
  const metadata = new grpc.Metadata();
  for (const [name, raw] of Object.entries(pairs || {})) {
    const value = text(raw);
    if (!name.endsWith("-bin")) {
      metadata.add(name, value);
      continue;
    }
    const bare = value.replace(/\\s+/g, "");
    if (bare.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(bare)) {
      const shown = value.length > 40 ? value.slice(0, 37) + "..." : value;
      throw new Error("The value of " + JSON.stringify(name) + " is not base64 (a -bin name carries bytes): " +
        JSON.stringify(shown) + ".");
    }
    metadata.add(name, Buffer.from(bare, "base64"));
  }
  return metadata;
}

/**
 * One call of a grpc step: the response, or a rejection when the server was
 * not reached in time or, for a step without protos, its reflection failed.
 */
function grpcExchange(spec, timeoutMs, tls) {
  const modules = grpcModules();
  const { grpc } = modules;
  const target = grpcTarget(spec);
  const metadata = grpcMetadata(grpc, spec.metadata);
  const client = new grpc.Client(target.address, grpcCredentials(grpc, target.tls, tls),
    { "grpc.max_receive_message_length": MAX_BODY_BYTES });
  const json = spec.protos ? Promise.resolve(grpcProtosJson(spec))
    : grpcReflectedJson(spec, client, modules, metadata, timeoutMs);
  return json.then((root) => {
    const from = spec.protos || "what the server at " + target.address + " describes by reflection";
    return grpcCall(grpc, client, grpcMethod(spec, modules, root, from), spec, metadata, timeoutMs);
  }).catch((error) => {
    client.close();
    throw error;
  });
}

/** The call itself, on \`client\`, which it closes when the call ends. */
function grpcCall(grpc, client, known, spec, metadata, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  const name = spec.path.slice(1);
  // The response's bytes, counted as they are decoded: a stream's together are bounded as one answer.
  let bytes = 0;
  const method = { ...known, responseDeserialize: (b) => {
    bytes += b.length;
    return known.responseDeserialize(b);
  } };
  return new Promise((resolve, reject) => {
    const messages = [];
    let headers, status, ended = false, stopped;
    const finish = () => {
      if (!status || !ended) return;
      client.close();
      const arrived = messages.length + " message" + (messages.length === 1 ? "" : "s") + " had arrived";
      if (stopped === "too-large" || (status.code === grpc.status.RESOURCE_EXHAUSTED && /larger than max/i.test(status.details))) {
        return reject(new Error("The response of " + name + " held more than " + MAX_BODY_BYTES +
          " bytes (--max-body); flowrun cancelled the call (" + arrived + ")."));
      }
      if (status.code === grpc.status.UNAVAILABLE) {
        return reject(new Error(name + " is unavailable (UNAVAILABLE): " + status.details + "."));
      }
      if (status.code === grpc.status.DEADLINE_EXCEEDED && Date.now() >= deadline - 5) {
        return reject(new Error("No end of " + name + " within " + timeoutMs + " ms, the step's timeout (" + arrived + ")."));
      }
      const failures = stopped === "max_messages" ? ["The stream of " + name + " brought more than " + spec.maxMessages +
        " messages (max_messages); flowrun cancelled the call and kept the first " + spec.maxMessages + "."] : [];
      const body = JSON.stringify(method.responseStream ? messages : messages.length ? messages[0] : null);
      resolve({ statusCode: status.code, headers: grpcHeaders(headers, status), body, received: messages.length,
        sent: started.sent, failures });
    };
    const started = grpcStart(client, method, spec, metadata, deadline, {
      data: (message) => {
        if (stopped) return;
        if (bytes > MAX_BODY_BYTES) {
          stopped = "too-large";
          return started.call.cancel();
        }
        if (messages.length >= spec.maxMessages) {
          stopped = "max_messages";
          return started.call.cancel();
        }
        messages.push(message);
      },
      done: (last) => {
        messages.push(...last);
        ended = true;
        finish();
      },
    });
    started.call.on("metadata", (m) => headers = m);
    started.call.on("status", (s) => {
      status = s;
      finish();
    });
  });
}
`;
