/**
 * The JSON Schema of the map under a step's `websocket:` key, for
 * schema/flow.schema.json (editors complete and check it as they do a
 * request's).
 *
 * @module
 */

const text = (description: string) => ({ type: "string", description });

/**
 * The `websocket:` map's schema (draft 2020-12 style).
 *
 * @example
 * ```ts
 * import { WEBSOCKET_SCHEMA } from "./schema.ts";
 * if (WEBSOCKET_SCHEMA.additionalProperties !== false) throw new Error();
 * ```
 */
export const WEBSOCKET_SCHEMA = {
  type: "object",
  description: "A WebSocket step: connect, send messages, receive until a condition or a bound. " +
    "$.json holds {messages, close}; status is the handshake's (101 when upgraded).",
  required: ["url"],
  additionalProperties: false,
  properties: {
    url: text(
      "The ws:// or wss:// URL to connect to (http:// and https:// connect as ws:// and wss://); may hold ${…}.",
    ),
    headers: {
      type: "object",
      description: "Handshake request headers (authorization, cookie…); values may hold ${…}.",
      additionalProperties: {
        type: ["string", "number", "boolean"],
        description: "A header's value, sent as text; may hold ${…}.",
      },
    },
    subprotocols: {
      type: "array",
      description: "Subprotocols offered in Sec-WebSocket-Protocol, in order of preference.",
      items: { type: "string", description: "A subprotocol name, e.g. chat.v1." },
    },
    send: {
      type: "array",
      description:
        "Messages sent in order once the connection opens; each one of text, json, binary.",
      items: {
        type: "object",
        description: "One message: exactly one of text, json or binary, and optionally after.",
        additionalProperties: false,
        oneOf: [{ required: ["text"] }, { required: ["json"] }, { required: ["binary"] }],
        properties: {
          text: text("A text message, as written; may hold ${…}."),
          json: {
            description: "Any YAML value, sent as one JSON text message; strings may hold ${…}.",
          },
          binary: text("A binary message, written as base64."),
          after: {
            description: "Send it once this many messages were received, or once a message " +
              "received since the item before it was sent makes {message: JSONPath} hold (and " +
              "the items before it were sent); at once when absent.",
            oneOf: [
              { type: "integer", minimum: 0 },
              {
                type: "object",
                additionalProperties: false,
                required: ["message"],
                properties: {
                  message: text(
                    "JSONPath on a list holding one received message, as until writes it, " +
                      "e.g. $[?@.type == 'ack'].",
                  ),
                },
              },
            ],
          },
        },
      },
    },
    until: {
      description: "JSONPath: stop receiving once it selects something from a list holding the " +
        "message just received, e.g. $[?@.type == 'done']; a list of them: once each has. The " +
        "step fails when it never holds.",
      oneOf: [
        { type: "string" },
        { type: "array", minItems: 1, items: text("One condition, e.g. $[?@.type == 'done'].") },
      ],
    },
    count: {
      type: "integer",
      minimum: 1,
      maximum: 100000,
      default: 1000,
      description: "Stop receiving after this many messages.",
    },
    wait: {
      type: ["string", "integer"],
      description:
        "Stop receiving after this long (500ms, 5s, or ms); the step's timeout when absent.",
    },
  },
} as const;
