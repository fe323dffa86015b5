/**
 * The messages of gRPC server reflection that a client needs, written as a
 * protobufjs JSON descriptor: the official `reflection.proto` ships only in
 * `@grpc/reflection`, a server package the tests use, so the runtime carries
 * the few messages itself. `v1` and `v1alpha` define the same messages with
 * the same field numbers; only the method path differs
 * ({@linkcode REFLECTION_METHODS}).
 *
 * @module
 */
import protobuf from "protobufjs";

/**
 * The stream's method paths, newest first: a server that answers `v1` with
 * UNIMPLEMENTED may still offer `v1alpha` (grpc-go and grpc-java servers
 * built before 2023 offer only that).
 *
 * @example
 * ```ts
 * import { REFLECTION_METHODS } from "./reflection_messages.ts";
 * if (!REFLECTION_METHODS[0].includes(".v1.")) throw new Error("v1 is asked first");
 * ```
 */
export const REFLECTION_METHODS = [
  "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
  "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
] as const;

/** One question on the stream: exactly one of the three is set. */
export interface ReflectionRequest {
  fileContainingSymbol?: string;
  fileByFilename?: string;
  listServices?: string;
}

/** One answer: the files asked for, the services, or the server's error. */
export interface ReflectionResponse {
  fileDescriptorResponse?: { fileDescriptorProto: Uint8Array[] };
  listServicesResponse?: { service: { name: string }[] };
  errorResponse?: { errorCode: number; errorMessage: string };
}

// Field numbers from grpc/reflection/v1/reflection.proto. Fields a client
// never reads (valid_host, original_request, extension numbers) are left
// out: the decoder skips them as unknown fields.
const root = protobuf.Root.fromJSON({
  nested: {
    ServerReflectionRequest: {
      oneofs: {
        messageRequest: { oneof: ["fileByFilename", "fileContainingSymbol", "listServices"] },
      },
      fields: {
        host: { type: "string", id: 1 },
        fileByFilename: { type: "string", id: 3 },
        fileContainingSymbol: { type: "string", id: 4 },
        listServices: { type: "string", id: 7 },
      },
    },
    ServerReflectionResponse: {
      fields: {
        fileDescriptorResponse: { type: "FileDescriptorResponse", id: 4 },
        listServicesResponse: { type: "ListServiceResponse", id: 6 },
        errorResponse: { type: "ErrorResponse", id: 7 },
      },
    },
    FileDescriptorResponse: {
      fields: { fileDescriptorProto: { rule: "repeated", type: "bytes", id: 1 } },
    },
    ListServiceResponse: {
      fields: { service: { rule: "repeated", type: "ServiceResponse", id: 1 } },
    },
    ServiceResponse: { fields: { name: { type: "string", id: 1 } } },
    ErrorResponse: {
      fields: { errorCode: { type: "int32", id: 1 }, errorMessage: { type: "string", id: 2 } },
    },
  },
});
const Request = root.lookupType("ServerReflectionRequest");
const Response = root.lookupType("ServerReflectionResponse");

/**
 * A question as the bytes sent on the stream.
 *
 * @example
 * ```ts
 * import { encodeRequest } from "./reflection_messages.ts";
 * const bytes = encodeRequest({ listServices: "" });
 * if (bytes.length !== 2 || bytes[0] !== 0x3a) throw new Error("field 7, empty string");
 * ```
 */
export function encodeRequest(request: ReflectionRequest): Uint8Array {
  return Request.encode(Request.fromObject(request)).finish();
}

/**
 * An answer's bytes decoded; throws protobufjs's error when they are not a
 * `ServerReflectionResponse`.
 *
 * @example
 * ```ts
 * import { decodeResponse } from "./reflection_messages.ts";
 * // error_response { error_code: 5, error_message: "x" }
 * const answer = decodeResponse(new Uint8Array([0x3a, 5, 0x08, 5, 0x12, 1, 0x78]));
 * if (answer.errorResponse?.errorCode !== 5 || answer.errorResponse.errorMessage !== "x") {
 *   throw new Error();
 * }
 * ```
 */
export function decodeResponse(bytes: Uint8Array): ReflectionResponse {
  const message = Response.decode(bytes);
  return Response.toObject(message, { defaults: false, arrays: true }) as ReflectionResponse;
}
