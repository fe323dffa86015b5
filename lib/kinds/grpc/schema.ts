/**
 * The JSON Schema of the map under a step's `grpc:` key, as
 * `scripts/sync_kinds.ts` writes it into `schema/flow.schema.json`.
 *
 * @module
 */

const message = {
  type: "object",
  description: "A request message in the proto3 JSON mapping (fields by name, enums by name, " +
    "64-bit integers as strings, bytes as base64, well-known types in their JSON forms).",
};

/**
 * The schema of `grpc:`.
 *
 * @example
 * ```ts
 * import { GRPC_SCHEMA } from "./schema.ts";
 * if (GRPC_SCHEMA.additionalProperties !== false) throw new Error();
 * ```
 */
export const GRPC_SCHEMA = {
  type: "object",
  description: "A gRPC call (unary or streaming) instead of an HTTP request; see docs/grpc.md.",
  required: ["target", "method"],
  additionalProperties: false,
  properties: {
    target: {
      type: "string",
      description: "host:port (plaintext HTTP/2), grpc://host:port, or grpcs://host:port (TLS).",
    },
    tls: { type: "boolean", description: "Call over TLS even for a host:port target." },
    proto: {
      description: "The .proto file(s) describing the service, relative to the flow file; " +
        "none: the server's reflection service describes it.",
      oneOf: [
        { type: "string" },
        {
          type: "array",
          items: { type: "string", description: "A .proto file, relative to the flow file." },
          minItems: 1,
        },
      ],
    },
    import_paths: {
      type: "array",
      items: { type: "string", description: "A folder, relative to the flow file." },
      description: "Folders the .proto files' imports are found in, relative to the flow file.",
    },
    method: {
      type: "string",
      description: "The method to call: package.Service/Method.",
    },
    message: { ...message, description: `The one request message. ${message.description}` },
    messages: {
      description:
        "The request messages of a client-streaming or bidirectional method, sent in order.",
      oneOf: [{ type: "array", items: message }, { type: "string" }],
    },
    metadata: {
      type: "object",
      additionalProperties: { type: "string", description: "A metadata value; may hold ${…}." },
      description: "Request metadata: lower-case names to values, which may hold ${…}.",
    },
    max_messages: {
      type: "integer",
      minimum: 1,
      maximum: 100000,
      description: "The most messages a response stream may bring (default 1000); beyond it the " +
        "call is cancelled and the step fails.",
    },
  },
} as const;
