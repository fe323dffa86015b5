/**
 * Small pieces the account tests build their OpenAPI documents from: a JSON
 * content, a string property, a 200 answer, a required JSON body and an
 * integer path parameter.
 */

/** `schema` as the content of an `application/json` body or answer. */
export const json = (schema: unknown) => ({ "application/json": { schema } });

/** A string property. */
export const text = { type: "string" };

/** An operation's `responses`: one 200 answering `schema`. */
export const answers = (schema: unknown) => ({
  "200": { description: "OK", content: json(schema) },
});

/** A required JSON `requestBody` of an object requiring every one of `props`. */
export const body = (props: Record<string, unknown>) => ({
  required: true,
  content: json({ type: "object", required: Object.keys(props), properties: props }),
});

/** An operation's `parameters`: the integer path parameter `name`. */
export const param = (name: string) => [
  { name, in: "path", required: true, schema: { type: "integer" } },
];
