/**
 * A request's body rewritten for replay: JSON value by value, a urlencoded
 * body as `form:` fields (or as text when its encoding is not clean), a
 * multipart body as a `multipart:` map whose files are read from beside the
 * flow, any other text with its tokens replaced.
 *
 * @module
 */
import { askRpcPassword } from "./rpc_logins.ts";
import { isSecretName } from "../../secrets/mod.ts";
import { sendsAccount } from "./worded_fields.ts";
import { encodedJson } from "../encoded.ts";
import { FILE_PLACEHOLDER, multipartBoundary } from "../har_input.ts";
import type { HarRecord } from "../har_model.ts";
import { MAX_WALK_DEPTH, parseBody, safeDecode, TooDeepJson, walk } from "../json.ts";
import type { Step } from "../model.ts";
import {
  formSource,
  multipartParts,
  PLACEHOLDER_TEXT,
  placeholderPath,
  sentFileName,
} from "../uploads.ts";
import { yflow, type YMap, ymap, type YNode, type YScalar } from "../yaml_out.ts";
import { freshUuidsIn } from "./ids.ts";
import { madeIdsIn } from "./made_ids.ts";
import { bodyValue, innerValue } from "./rewrite_value.ts";
import type { Correlator, Where } from "./state.ts";
import { pickedHidden, rowFieldName } from "./query_rows.ts";
import { withTokens } from "./tokens.ts";
import { unrecordedBody } from "./unrecorded_body.ts";
import { binaryBody } from "./binary_body.ts";
import { escapedHiddenField } from "./escaped_hidden.ts";
import { emptyHiddenField } from "./hidden_fields.ts";
import { namedOnPageProducer } from "./named_on_page.ts";
import { heldNumberProducer } from "./held_numbers.ts";
import { useProducer } from "./captures.ts";
import { labelledOption } from "./labelled_ids.ts";
import { askBareCredential } from "./bare_credential.ts";
import { pageNamedField } from "./page_named_fields.ts";

/**
 * Sets the body of `step` (`body`, `form` or `multipart`) from the one `r`
 * sent; `login` tells a login's fields apart.
 *
 * @example
 * ```ts
 * import { rewriteBody } from "./rewrite_body.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const r = { method: "POST", headers: [{ name: "Content-Type", value: "application/x-www-form-urlencoded" }], bodyText: "q=a+b&n=1" };
 * // deno-lint-ignore no-explicit-any
 * const step = { name: "search", first: r, uses: new Set(), sent: new Map(), headers: [] } as any;
 * // deno-lint-ignore no-explicit-any
 * rewriteBody(c, r as any, step, false);
 * if (step.form === undefined || step.body !== undefined) throw new Error();
 * ```
 */
export function rewriteBody(c: Correlator, r: HarRecord, step: Step, login: boolean): void {
  // chrome-har gives the page a form's redirect loads the form's headers (a multipart
  // `Content-Type`) and no body: a read with none recorded sends none.
  if ((r.method === "GET" || r.method === "HEAD") && !r.bodyText) return;
  // A curl command's body read from a file is that file's bytes, under the type it typed.
  if (r.bodyElsewhere) return;
  const contentType = r.headers.find((h) => h.name.toLowerCase() === "content-type")?.value ??
    r.bodyMime ?? "";
  if (/^multipart\//i.test(contentType)) return multipart(c, r, step, contentType);
  if (binaryBody(c, r, step)) return;
  const text = r.bodyText;
  if (text === undefined || text === "") return void unrecordedBody(c, r, step);
  if (/grant_type"?\s*[=:]\s*"?authorization_code|code_verifier/.test(text)) {
    c.oauthSteps.add(step);
  }
  const mutating = ["POST", "PUT", "PATCH"].includes(r.method);
  const json = jsonBody(c, contentType, text, step);
  if (json !== undefined) {
    jsonFields(c, json, step, mutating, login);
    return askRpcPassword(c, r, json, step);
  }
  if (/x-www-form-urlencoded/i.test(contentType)) {
    return urlencoded(c, text, step, mutating, login);
  }
  step.body = textBody(c, text, step, login);
}

/** A text or framed body: an id the browser made inside it is the run's own (made_ids.ts). */
function textBody(c: Correlator, text: string, step: Step, login: boolean): string {
  const body = withTokens(c, text, step, madeIdsIn(c, text));
  // A login's body of one bare value no answer produced is the typed credential itself.
  if (!login || body !== text) return body;
  return askBareCredential(c, text, step) ?? body;
}

/** The body as a JSON object or array, `undefined` when it is none (noted when too deep). */
function jsonBody(
  c: Correlator,
  contentType: string,
  text: string,
  step: Step,
): object | undefined {
  if (!/json/i.test(contentType) && !/^\s*[[{]/.test(text)) return undefined;
  try {
    const json = parseBody(text);
    return typeof json === "object" && json !== null ? json : undefined;
  } catch (error) {
    if (error instanceof TooDeepJson) {
      c.notes.push(
        `The request body of step "${step.name}" nests deeper than ${MAX_WALK_DEPTH} levels: it is kept as recorded, with no values replaced.`,
      );
    }
    return undefined;
  }
}

/** A JSON body value by value; its top-level fields remembered for `equals`. */
function jsonFields(
  c: Correlator,
  json: object,
  step: Step,
  mutating: boolean,
  login: boolean,
): void {
  let credentials = false;
  walk(json, (_p, key, leaf) => {
    if (leaf !== "" && leaf !== null && isSecretName(key)) credentials = true;
  });
  const account = !Array.isArray(json) && sendsAccount(Object.entries(json));
  const where: Where = { body: true, mutating, login, credentials, account };
  step.body = bodyValue(c, json, "", step, where);
  if (!Array.isArray(json) && step.body && typeof step.body === "object") {
    for (const [k, v] of (step.body as YMap).entries) {
      step.sent.set(k, { raw: (json as Record<string, unknown>)[k], template: v });
    }
  }
}

/** A urlencoded body: `form:` fields, or text with its values rewritten when not cleanly encoded. */
function urlencoded(
  c: Correlator,
  text: string,
  step: Step,
  mutating: boolean,
  login: boolean,
): void {
  const pairs = text.split("&").filter((p) => p !== "").map((pair) => {
    const eq = pair.indexOf("=");
    return eq === -1 ? [pair, undefined] as const : [pair.slice(0, eq), pair.slice(eq + 1)];
  });
  const credentials = pairs.some(([k]) =>
    isSecretName(safeDecode(k)) || c.passwordFields.has(safeDecode(k))
  );
  const account = sendsAccount(pairs.map(([k, v]) => [safeDecode(k), safeDecode(v ?? "")]));
  const where: Where = { body: true, mutating, login, credentials, account };
  // As `form:`, each name and value is encoded when sent: `&`, `+`, `%`, `=`, `#` and spaces
  // survive, a captured base64 token beside a checkbox `chk_${…}` too. A name is a template there.
  const form = formFields(pairs);
  if (form) {
    const names = form.map(([k]) =>
      rowFieldName(c, k, step) ?? pageNamedField(c, k, step) ?? c.sp.lit(k)
    );
    step.form = ymap(form.map(([k, values], i) => {
      const t = values.map((v) => fieldValue(c, k, v, step, where));
      return [names[i], t.length === 1 ? t[0] : t];
    }));
    return;
  }
  const names = pairs.map(([k]) =>
    rowFieldName(c, safeDecode(k), step) ?? pageNamedField(c, safeDecode(k), step)
  );
  step.body = pairs.map(([k, v], i) => {
    if (v === undefined) return withTokens(c, k, step, madeIdsIn(c, k));
    const value = safeDecode(v);
    const name = names[i] ?? c.sp.lit(k);
    // Fields a form would hold are read as the form's are; an unclean body's by the value alone.
    const replaced = names.some((n) => n !== undefined)
      ? fieldValue(c, safeDecode(k), value, step, where)
      : c.rules.stringValue(safeDecode(k), value, step, where);
    const kept = replaced === c.sp.lit(value);
    return `${name}=${kept ? withTokens(c, v, step, madeIdsIn(c, v, safeDecode(k))) : replaced}`;
  }).join("&");
}

/** A form field's value: JSON inside it, an empty hidden field, a labelled option, or by value. */
function fieldValue(c: Correlator, k: string, v: string, step: Step, where: Where): string {
  return formJson(c, v, step) ?? pickedHidden(c, k, v, step) ?? emptyHiddenField(c, k, v, step) ??
    escapedHiddenField(c, k, v, step) ?? labelledOption(c, k, v, step) ??
    namedOnPage(c, k, v, step) ??
    orHeldNumber(c, k, v, step, c.rules.stringValue(k, v, step, where));
}

/**
 * `found`, unless it is the small number `v` sent as recorded and the form's page held it hidden
 * under `k` alone (held_numbers.ts): then its capture from that page.
 */
function orHeldNumber(c: Correlator, k: string, v: string, step: Step, found: string): string {
  if (found !== c.sp.lit(v)) return found;
  const producer = heldNumberProducer(c, k, v, step);
  return producer ? useProducer(c, producer, step) : found;
}

/** A number the form's page held under this field's name, another answer under another's. */
function namedOnPage(c: Correlator, k: string, v: string, step: Step): string | undefined {
  const producer = c.linking ? namedOnPageProducer(c, k, v, step) : undefined;
  return producer && useProducer(c, producer, step);
}

/**
 * A form field that holds JSON (a settings page saves every setting as one
 * `json=` field): its values read back from the answers that handed them out,
 * like a JSON body's; `undefined` when it is no JSON or nothing in it is.
 */
function formJson(c: Correlator, value: string, step: Step): string | undefined {
  const inner = (key: string, leaf: unknown) => innerValue(c, key, leaf, step);
  return encodedJson(value, inner, (text) => withTokens(c, text, step), (text) => text);
}

/** Decodes one name or value of a urlencoded body; `undefined` when its encoding is broken. */
function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    return undefined;
  }
}

/**
 * Whether a `name=value` piece of a body sent as a form was typed for another parser: a name
 * holding a space (`liters value=10`), a value holding a line break or a tab, or a space
 * beside another `=` (`cpu,host=a value=0.64 1434055562`). That is line protocol and its
 * kin after `--data-binary`, which `form:` would encode again (`cpu%2Chost=a+value%3D0.64`)
 * where curl sends the bytes as typed. A value with spaces alone (`name=Jenny Rosen`) is a
 * hand-typed form field: a form's reader decodes it as `form:` sends it.
 */
function typedForAnotherParser(k: string, v: string): boolean {
  return /\s/.test(k) || /[\r\n\t]/.test(v) || (/ /.test(v) && v.includes("="));
}

/**
 * A urlencoded body's fields, decoded, repeated names gathered in first-seen
 * order; `undefined` when the text is not a clean encoding (a bare name, a
 * stray `%`, or text typed for another parser), which is then sent as recorded.
 *
 * @example
 * ```ts
 * import { formFields } from "./rewrite_body.ts";
 * const fields = formFields([["tag", "a"], ["q", "x+y"], ["tag", "b"]]);
 * if (JSON.stringify(fields) !== '[["tag",["a","b"]],["q",["x y"]]]') throw new Error();
 * if (formFields([["bare", undefined]]) !== undefined) throw new Error();
 * if (formFields([["cpu,host", "a value=1 1434055562"]]) !== undefined) throw new Error();
 * ```
 */
export function formFields(
  pairs: readonly (readonly (string | undefined)[])[],
): [string, string[]][] | undefined {
  const fields = new Map<string, string[]>();
  for (const [k, v] of pairs) {
    if (k === undefined || v === undefined) return undefined;
    if (typedForAnotherParser(k, v)) return undefined;
    const name = formDecode(k);
    const value = name === undefined ? undefined : formDecode(v);
    if (name === undefined || value === undefined) return undefined;
    fields.set(name, [...(fields.get(name) ?? []), value]);
  }
  return fields.size > 0 ? [...fields] : undefined;
}

/**
 * A multipart body becomes a `multipart:` map: text fields as templates,
 * each file read from a file beside the flow (`uploads/<name>`, the
 * recorded name kept), holding the recorded content or, since browsers
 * never keep an upload's bytes, a placeholder. The runner writes the
 * boundary and content type. A body that does not parse is sent as text.
 */
function multipart(c: Correlator, r: HarRecord, step: Step, contentType: string): void {
  const text = r.bodyText ?? "";
  // Chromium keeps no part of a body that holds a file: one file field is the best guess.
  const omitted = text.trim() === "";
  const parts = omitted
    ? [{ name: "file", fileName: "upload.bin" }]
    : multipartParts(text, multipartBoundary(contentType));
  if (!parts) {
    step.body = freshUuidsIn(c, text, step);
    return;
  }
  const where: Where = { body: true, mutating: true, login: false, credentials: false };
  const entries: [string, YNode[]][] = [];
  for (const part of parts) {
    // A multipart field's name is a template, as a form's: a recorded `${` is escaped.
    const name = pageNamedField(c, part.name, step) ?? c.sp.lit(part.name);
    const value = part.fileName === undefined
      ? partValue(c, part.name, part.value ?? "", step, where)
      : filePart(c, r, step, { ...part, fileName: part.fileName }, omitted);
    // A field sent again is a list, every part in order, as `form:` sends one: a checkbox's
    // hidden `off` before its `on` (DAViCal's `user_active`; Rails' `0` before `1`), whose last
    // the server reads, and the files of `<input type=file multiple>` or of one name twice,
    // all of which it keeps.
    const held = entries.find(([n]) => n === name);
    if (held) held[1].push(value);
    else entries.push([name, [value]]);
  }
  step.multipart = ymap(
    entries.map(([n, values]) => [n, values.length === 1 ? values[0] : values]),
  );
  step.headers = step.headers.filter(([name]) => name !== "content-type");
}

/** A multipart text field's value: an empty hidden field, a number its page named or held, or by value. */
function partValue(c: Correlator, name: string, value: string, step: Step, where: Where): string {
  return emptyHiddenField(c, name, value, step) ?? escapedHiddenField(c, name, value, step) ??
    namedOnPage(c, name, value, step) ??
    orHeldNumber(c, name, value, step, c.rules.stringValue(name, value, step, where));
}

/** The empty file a file input left empty sends. */
const NO_FILE = "uploads/no_file_chosen";

/** A file part: the file beside the flow it is read from (noted as an upload). */
function filePart(
  c: Correlator,
  r: HarRecord,
  step: Step,
  part: { fileName: string; content?: string; contentType?: string },
  omitted: boolean,
): YNode {
  // A file input left empty: the browser sent `filename=""` and no byte; so does the flow.
  if (part.fileName === "" && !part.content && !omitted) {
    if (!c.files.has(NO_FILE)) c.files.set(NO_FILE, "");
    return yflow([["file", NO_FILE], ["filename", ""]]);
  }
  const path = placeholderPath(part.fileName);
  // A binary file in a body kept as UTF-8 text (Playwright's recordHar) lost every byte that is
  // not UTF-8 to U+FFFD: what is left is no file a server takes, so it is a placeholder too.
  const lost = part.content?.includes("\ufffd") ?? false;
  const content = lost ? "" : part.content ?? "";
  const placeholder = content === "" || content === FILE_PLACEHOLDER;
  if (!c.files.has(path)) c.files.set(path, placeholder ? PLACEHOLDER_TEXT : content);
  c.uploads.push({ step: step.name, path, placeholder, omitted, form: formSource(r) });
  const fields: [string, YScalar][] = [["file", path]];
  if (part.contentType) fields.push(["content_type", part.contentType]);
  const sent = sentFileName(part.fileName);
  if (sent !== undefined) fields.push(["filename", sent]);
  return yflow(fields);
}
