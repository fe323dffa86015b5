/**
 * The processor's server reflection, for a gRPC step that names no `.proto`
 * files, as lib/kinds/grpc asks it (reflection.ts, reflection_root.ts): one
 * `ServerReflectionInfo` stream (`v1`, or `v1alpha` when the server answers
 * `v1` with UNIMPLEMENTED) on the call's own channel, `file_containing_symbol`
 * for the service, then `file_by_filename` for each import the server did
 * not send along; the `FileDescriptorProto`s made into a protobufjs root read
 * as the same `.proto` files parsed (fields and oneofs in lowerCamelCase, map
 * entries as maps), whose JSON the call then takes as it takes `protos/N.json`.
 * Asked once per process for each target, TLS and service, and kept; a
 * failed ask is not kept, so the next virtual user asks again. Bounded as in
 * `flowrun run`: the step's timeout, the answers' bytes together by the body
 * limit, 200 files. A failure rejects with flowrun's sentence naming the
 * server, which fails the virtual user.
 *
 * The reflection messages are carried as protobufjs JSON (the official
 * `reflection.proto` is not among Artillery's dependencies); `protobufjs/ext/descriptor`,
 * which proto-loader itself loads, decodes the files.
 *
 * @module
 */

/**
 * The JavaScript of `grpcReflectedJson(spec, client, modules, metadata, timeoutMs)`.
 *
 * @example
 * ```ts
 * import { GRPC_REFLECTION_SOURCE } from "./processor_grpc_reflection.ts";
 * if (!GRPC_REFLECTION_SOURCE.includes("function grpcReflectedJson(")) throw new Error();
 * ```
 */
export const GRPC_REFLECTION_SOURCE = `
/** grpc/reflection/v1/reflection.proto's messages, the fields a client reads (v1alpha's are the same). */
const GRPC_REFLECTION = {
  nested: {
    Request: {
      oneofs: { messageRequest: { oneof: ["fileByFilename", "fileContainingSymbol", "listServices"] } },
      fields: {
        host: { type: "string", id: 1 },
        fileByFilename: { type: "string", id: 3 },
        fileContainingSymbol: { type: "string", id: 4 },
        listServices: { type: "string", id: 7 },
      },
    },
    Response: {
      fields: {
        fileDescriptorResponse: { type: "Files", id: 4 },
        errorResponse: { type: "Failure", id: 7 },
      },
    },
    Files: { fields: { fileDescriptorProto: { rule: "repeated", type: "bytes", id: 1 } } },
    Failure: { fields: { errorCode: { type: "int32", id: 1 }, errorMessage: { type: "string", id: 2 } } },
  },
};
/** The stream's paths, newest first: servers built before 2023 offer v1alpha only. */
const GRPC_REFLECTION_PATHS = ["v1", "v1alpha"]
  .map((v) => "/grpc.reflection." + v + ".ServerReflection/ServerReflectionInfo");
/** The most files a service and its imports may count, as in flowrun run. */
const GRPC_REFLECTION_FILES = 200;
/** Each reflected root's JSON (a promise), by target, TLS and service: asked once per process. */
const grpcReflected = new Map();

/** A reflection failure: flowrun's sentence, and whether the older version may be asked instead. */
function grpcReflectionError(message, older) {
  const error = new Error(message);
  error.older = older === true;
  return error;
}

/** The sentence for a status that ended the reflection stream. */
function grpcReflectionStatus(grpc, error, at, timeoutMs) {
  const details = error.details || error.message;
  if (error.code === grpc.status.UNIMPLEMENTED) {
    return grpcReflectionError("The server at " + at + " does not offer server reflection (UNIMPLEMENTED); " +
      "name the .proto files with proto:.", true);
  }
  if (error.code === grpc.status.UNAVAILABLE) {
    return grpcReflectionError("The server at " + at + " could not be reached for server reflection: " + details + ".");
  }
  if (error.code === grpc.status.DEADLINE_EXCEEDED) {
    return grpcReflectionError("The server at " + at + " did not finish server reflection within " + timeoutMs +
      " ms, the step's timeout (DEADLINE_EXCEEDED).");
  }
  if (error.code === grpc.status.RESOURCE_EXHAUSTED && /larger than max/i.test(details)) {
    return grpcReflectionError("The server at " + at + " sent more than " + MAX_BODY_BYTES +
      " bytes of server reflection answers; raise --max-body or name the .proto files with proto:.");
  }
  const name = Object.keys(grpc.status).find((k) => grpc.status[k] === error.code) || "code " + error.code;
  return grpcReflectionError("The server at " + at + " ended server reflection with " + name + ": " + details + ".");
}

/** The decoded FileDescriptorProtos of the service and its imports, asked on one stream at \`path\`. */
function grpcReflectOn(ask, path) {
  const { client, grpc, protobuf, descriptor, at, service, metadata, timeoutMs } = ask;
  const types = protobuf.Root.fromJSON(GRPC_REFLECTION);
  const Request = types.lookupType("Request"), Response = types.lookupType("Response");
  const serialize = (q) => Buffer.from(Request.encode(Request.fromObject(q)).finish());
  const deserialize = (bytes) => Response.toObject(Response.decode(bytes), { arrays: true });
  const call = client.makeBidiStreamRequest(path, serialize, deserialize, metadata, { deadline: Date.now() + timeoutMs });
  return new Promise((resolve, reject) => {
    const files = new Map(), asked = new Set();
    let waiting = { name: undefined, what: JSON.stringify(service) }, bytes = 0, over = false;
    const fail = (error) => {
      if (over) return;
      over = true;
      call.cancel();
      reject(error);
    };
    const next = () => {
      for (const file of files.values()) {
        for (const name of file.dependency || []) {
          if (files.has(name) || asked.has(name)) continue;
          asked.add(name);
          waiting = { name, by: file.name, what: JSON.stringify(name) };
          return call.write({ fileByFilename: name });
        }
      }
      over = true;
      call.end();
      resolve([...files.values()]);
    };
    call.on("data", (answer) => {
      if (over) return;
      const failure = answer.errorResponse, protos = answer.fileDescriptorResponse;
      const missing = waiting.name && "The server at " + at + " does not send " + waiting.what + ", which " +
        JSON.stringify(waiting.by) + " imports";
      if (failure && failure.errorCode === grpc.status.NOT_FOUND && !waiting.name) {
        return fail(grpcReflectionError("The server at " + at + " knows no service " + waiting.what + "."));
      }
      if (failure || !protos) {
        const why = failure ? " (code " + failure.errorCode + ": " + failure.errorMessage + ")" : ": it sent no file";
        return fail(grpcReflectionError(missing ? missing + why + "." : "The server at " + at +
          " answered the question for " + waiting.what + why + "."));
      }
      for (const proto of protos.fileDescriptorProto) {
        bytes += proto.length;
        if (bytes > MAX_BODY_BYTES) return fail(grpcReflectionStatus(grpc, { code: grpc.status.RESOURCE_EXHAUSTED, details: "larger than max" }, at));
        let file;
        try {
          file = descriptor.FileDescriptorProto.decode(proto);
        } catch (error) {
          return fail(grpcReflectionError("The server at " + at + " sent a file for " + waiting.what +
            " that is not a FileDescriptorProto (" + error.message + ")."));
        }
        if (!files.has(file.name)) files.set(file.name, file);
      }
      if (files.size > GRPC_REFLECTION_FILES) {
        return fail(grpcReflectionError("The server at " + at + " sent more than " + GRPC_REFLECTION_FILES +
          " files for " + JSON.stringify(service) + " and its imports."));
      }
      if (waiting.name && !files.has(waiting.name)) return fail(grpcReflectionError(missing + ": it answered with other files."));
      next();
    });
    call.on("error", (error) => fail(grpcReflectionStatus(grpc, error, at, timeoutMs)));
    call.on("end", () => fail(grpcReflectionError("The server at " + at + " ended the server reflection stream before answering.")));
    call.write({ fileContainingSymbol: service });
  });
}

/** Renames a message's fields and oneofs (and its nested messages') to lowerCamelCase; collects map entries. */
function grpcCamelCased(camel, message, scope, entries) {
  const fullName = scope + (message.name || "");
  if (message.options && message.options.mapEntry) entries.push(fullName);
  for (const list of [message.field, message.extension, message.oneofDecl]) {
    for (const item of list || []) if (item.name) item.name = camel(item.name);
  }
  for (const nested of message.nestedType || []) grpcCamelCased(camel, nested, fullName + ".", entries);
}

/** Replaces the fields of the map entry type by map fields, as a .proto file declares them. */
function grpcAsMap(protobuf, root, entryName) {
  const entry = root.lookup(entryName);
  const parent = entry && entry.parent;
  if (!(entry instanceof protobuf.Type) || !(parent instanceof protobuf.Type)) return;
  const key = entry.fields.key, value = entry.fields.value;
  if (!key || !value) return;
  for (const field of parent.fieldsArray.slice()) {
    if (field.resolvedType !== entry) continue;
    parent.remove(field);
    parent.add(new protobuf.MapField(field.name, field.id, key.type, value.type, field.options));
  }
  parent.remove(entry);
  if (parent.options && parent.options.map_entry) delete parent.options.map_entry;
}

/** The files as one root, read as the same .proto files parsed by protobufjs. */
function grpcRootOfFiles(protobuf, files) {
  const camel = protobuf.util.camelCase, entries = [];
  for (const file of files) {
    for (const message of file.messageType || []) grpcCamelCased(camel, message, file.package ? file.package + "." : "", entries);
    for (const field of file.extension || []) if (field.name) field.name = camel(field.name);
  }
  const root = protobuf.Root.fromDescriptor({ file: files });
  root.resolveAll();
  for (const entry of entries) grpcAsMap(protobuf, root, entry);
  root.resolveAll();
  return root;
}

/** The service's root as JSON: v1, then v1alpha when the server has no v1. */
async function grpcReflect(ask) {
  for (const [index, path] of GRPC_REFLECTION_PATHS.entries()) {
    try {
      const root = grpcRootOfFiles(ask.protobuf, await grpcReflectOn(ask, path));
      if (!(root.lookup(ask.service) instanceof ask.protobuf.Service)) {
        throw grpcReflectionError("The server at " + ask.at + " said which file defines " +
          JSON.stringify(ask.service) + ", but the files it sent do not define it as a service.");
      }
      return root.toJSON();
    } catch (error) {
      if (!error.older || index + 1 === GRPC_REFLECTION_PATHS.length) throw error;
    }
  }
}

/**
 * The root JSON of the step's service as the server describes it, asked on
 * \`client\` (the call's own channel) with the step's metadata once per process.
 */
function grpcReflectedJson(spec, client, modules, metadata, timeoutMs) {
  const target = grpcTarget(spec);
  const service = spec.path.slice(1).split("/")[0];
  // The description does not depend on the certificates that reached it (a failed ask is not kept).
  const key = JSON.stringify([target.address, target.tls, service]);
  let pending = grpcReflected.get(key);
  if (!pending) {
    const ask = { ...modules, client, at: target.address, service, metadata, timeoutMs };
    pending = grpcReflect(ask);
    grpcReflected.set(key, pending);
    pending.catch(() => grpcReflected.delete(key));
  }
  return pending;
}
`;
