/**
 * One step's request as the body of an Artillery request item: URL,
 * headers, cookies, query, body (JSON, text, form or multipart fields)
 * and the auth Artillery can send as headers. What it cannot send (a file
 * body, an upload, a signed or negotiated auth) is noted.
 *
 * @module
 */
import type { Auth } from "../model/auth.ts";
import type { RequestSpec, Step } from "../model/flow.ts";
import type { Template, ValueTemplate } from "../model/template.ts";
import { bodyFileText, uploadField } from "./files.ts";
import { tokenFor } from "./oauth2.ts";
import { note, type Place } from "./scope.ts";
import { templateText, templateValue } from "./template.ts";
import { urlText } from "./url.ts";

/** Fields of an Artillery request item, in the order they are written. */
export type RequestFields = Record<string, unknown>;

/** Pairs as a map; a repeated name is noted, its last value kept. */
function pairs(
  list: [string, ValueTemplate][],
  place: Place,
  what: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of list) {
    if (name in out) {
      note(place, `${what} "${name}" is repeated: Artillery sends the last value only`);
    }
    out[name] = templateValue(value, place);
  }
  return out;
}

/** A field or header name as Artillery writes it: its expression, if it holds one, in Artillery's form. */
function nameText(name: string, place: Place, from?: Template): string {
  return from ? String(templateText(from, place)) : name;
}

/** Whether a body is sent as JSON (a structure, or a non-text constant), else as text. */
function isJson(body: ValueTemplate): boolean {
  if (body.kind === "template") return false;
  return body.kind !== "const" || typeof body.value !== "string";
}

/** The body fields of a request. */
function bodyFields(request: RequestSpec, place: Place): RequestFields {
  if (request.body) {
    const value = templateValue(request.body, place);
    return isJson(request.body) ? { json: value } : { body: value };
  }
  if (request.form) {
    return {
      form: pairs(
        request.form.map(([n, v, from]) => [nameText(n, place, from), v]),
        place,
        "form field",
      ),
    };
  }
  if (request.multipart) {
    const fields: [string, ValueTemplate][] = [];
    const uploads: Record<string, unknown> = {};
    for (const part of request.multipart) {
      const name = nameText(part.name, place, part.nameFrom);
      if (part.kind === "field") fields.push([name, part.value]);
      else if (part.kind === "file") uploads[name] = uploadField(part, place);
      else {
        // Artillery's formData sends a value as a text field: a `{content}` part's filename is lost.
        if (part.filename !== undefined) {
          note(place, `part "${part.name}" is sent as a text field, without its filename`);
        }
        fields.push([name, part.value]);
      }
    }
    return { formData: { ...pairs(fields, place, "multipart field"), ...uploads } };
  }
  const text = request.bodyFile && bodyFileText(request.bodyFile, place);
  return text === undefined ? {} : { body: text };
}

/**
 * Adds to `fields` the headers, query and cookies `auth` sends (basic as
 * Artillery's `auth`), or notes that Artillery cannot send it.
 *
 * @example
 * ```ts
 * import { authFields } from "./request.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>(), step: "s" };
 * const token = { source: "${ENV.T}", parts: [{ ref: { kind: "env" as const, name: "T" }, text: "${ENV.T}", offset: 0 }] };
 * const fields: Record<string, unknown> = {};
 * authFields({ kind: "bearer", token }, place, fields);
 * if (JSON.stringify(fields) !== '{"headers":{"authorization":"Bearer {{ $env.T }}"}}') throw new Error(JSON.stringify(fields));
 * // Basic credentials in a page's own header: not Artillery's `auth`, said so.
 * const own: Record<string, unknown> = {};
 * authFields({ kind: "basic", username: token, password: token, header: "X-Authorization" }, place, own);
 * if ("auth" in own || !place.scope.notes[0].what.includes("own header (X-Authorization)")) throw new Error();
 * ```
 */
export function authFields(auth: Auth | undefined, place: Place, fields: RequestFields): void {
  if (!auth || auth.kind === "none") return;
  // Artillery's `auth` sends `Authorization: Basic`; another header or word is not that.
  if (auth.kind === "basic" && auth.header === undefined && auth.scheme === undefined) {
    fields.auth = {
      user: templateText(auth.username, place),
      pass: templateText(auth.password, place),
    };
  } else if (auth.kind === "oauth2" && tokenFor(auth, place)) {
    fields.headers = {
      ...(fields.headers as Record<string, unknown>),
      authorization: `Bearer {{ ${tokenFor(auth, place)!.variable} }}`,
    };
  } else if (auth.kind === "bearer" && "token" in auth) {
    fields.headers = {
      ...(fields.headers as Record<string, unknown>),
      authorization: `Bearer ${templateText(auth.token, place)}`,
    };
  } else if (auth.kind === "api_key") {
    const value = templateText(auth.value, place);
    const key = auth.in === "header" ? "headers" : auth.in === "query" ? "qs" : "cookie";
    fields[key] = { ...(fields[key] as Record<string, unknown>), [auth.name]: value };
  } else {
    const own = auth.kind === "basic"
      ? ` in its own header (${auth.header ?? "Authorization"})`
      : "";
    note(place, `${auth.kind} auth${own} is not expressed: the request is sent without it`);
  }
}

/**
 * The fields of a step's request item (without captures and
 * expectations); `auth` is the auth in force for the step.
 *
 * @example
 * ```ts
 * import { requestFields } from "./request.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>(), step: "s" };
 * const step = { name: "s", line: 1, column: 1, captures: [], dependsOn: [], assert: { paths: [] },
 *   request: { method: "POST", url: { source: "http://x.test/", parts: ["http://x.test/"] }, headers: [],
 *   body: { kind: "map" as const, entries: [["a", { kind: "const" as const, value: 1 }]] as [string, { kind: "const"; value: number }][] } } };
 * const fields = requestFields(step, undefined, place);
 * if (JSON.stringify(fields) !== '{"url":"http://x.test/","json":{"a":1}}') throw new Error(JSON.stringify(fields));
 * ```
 */
export function requestFields(step: Step, auth: Auth | undefined, place: Place): RequestFields {
  const request = step.request;
  const fields: RequestFields = { url: urlText(request, place) };
  const headers: Record<string, unknown> = {};
  for (const [name, value, nameFrom] of request.headers) {
    const key = nameText(name, place, nameFrom);
    headers[key.toLowerCase()] = templateText(value, place);
  }
  if (Object.keys(headers).length > 0) fields.headers = headers;
  if (request.headersFrom || request.queryFrom || request.methodFrom) {
    note(place, "headers, query or method taken from an expression are not expressed");
  }
  if (request.cookies?.length) {
    fields.cookie = Object.fromEntries(
      request.cookies.map(([n, v]) => [n, templateText(v, place)]),
    );
  }
  Object.assign(fields, bodyFields(request, place));
  authFields(auth, place, fields);
  if (step.options?.followRedirects === false) fields.followRedirect = false;
  return fields;
}
