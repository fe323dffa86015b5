/**
 * Small pieces the account tests build their OpenAPI documents from: a JSON
 * content, a string property, a 200 answer, a required JSON body, an integer
 * path parameter, and the head of a document whose operations need a token.
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

/**
 * A document ("CMS") whose every operation sends a token in the `Authorization` header, unless
 * it says `security: []` (a login), with `rest` after that head: its `paths`, its `tags`.
 *
 * @example
 * ```ts
 * import { tokenDocument } from "./openapi_doc_parts.ts";
 * const doc = tokenDocument({ paths: {} });
 * if (Object.keys(doc).join() !== "openapi,info,security,components,paths") throw new Error();
 * ```
 */
export const tokenDocument = (rest: Record<string, unknown>) => ({
  openapi: "3.0.1",
  info: { title: "CMS", version: "1" },
  security: [{ Auth: [] }],
  components: {
    securitySchemes: { Auth: { type: "apiKey", in: "header", name: "Authorization" } },
  },
  ...rest,
});

/**
 * A Swagger 2.0 document as flasgger serves a Flask API's: under `/api/v1`, its token sent in an
 * `Authorization` apiKey whose description alone calls it a JWT.
 *
 * @example
 * ```ts
 * import { flasggerDocument } from "./openapi_doc_parts.ts";
 * const doc = flasggerDocument("bookmarks", {});
 * if (doc.basePath !== "/api/v1" || doc.securityDefinitions.Bearer.in !== "header") throw new Error();
 * ```
 */
export const flasggerDocument = (title: string, paths: Record<string, unknown>) => ({
  swagger: "2.0",
  info: { title, version: "1" },
  basePath: "/api/v1",
  securityDefinitions: {
    Bearer: {
      type: "apiKey",
      name: "Authorization",
      in: "header",
      description: 'JWT Authorization header "Authorization: Bearer {token}"',
    },
  },
  paths,
});

/**
 * The paths of a sign-up and a login that both take `credentials` and answer `token`, neither
 * under the document's security: the account every bearer-token suite of these tests starts with.
 *
 * @example
 * ```ts
 * import { signUpPaths, text } from "./openapi_doc_parts.ts";
 * const paths = signUpPaths({ email: text }, { type: "object", properties: { token: text } });
 * if (Object.keys(paths).join() !== "/auth/register,/auth/login") throw new Error();
 * ```
 */
export const signUpPaths = (credentials: Record<string, unknown>, token: unknown) => ({
  "/auth/register": {
    post: {
      security: [],
      requestBody: body(credentials),
      responses: { "201": { description: "Registered", content: json(token) } },
    },
  },
  "/auth/login": {
    post: { security: [], requestBody: body(credentials), responses: answers(token) },
  },
});
