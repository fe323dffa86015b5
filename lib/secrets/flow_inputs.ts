/**
 * Finding secrets ahead of time in a flow's own text: the vars, parameters,
 * environment variables, captures and constant text that some request of
 * the flow sends in a secret place (a secret header, cookie, URL
 * credentials, a secret-named query parameter or body field) are secret from
 * the start, before any value is written.
 *
 * @module
 */
import type { Expr, Ref, Template, ValueTemplate } from "../model/template.ts";
import type { Flow } from "../model/flow.ts";
import { isSecretHeader, isSecretKey } from "./names.ts";
import { isKeyData } from "./key_data.ts";
import { isWrittenCookieValue, isWrittenHeaderText, writtenKey } from "./written_headers.ts";
import { kindHeaders } from "./kind_headers.ts";
import { ownTemplateText, type OwnText, type OwnVars, ownVars } from "./own_vars.ts";
import { withRenamed } from "./alias_vars.ts";

/** What a flow's expressions read that lands in a secret place of some request. */
export interface SecretInputs {
  /** Flow vars and run parameters (`${vars.x}`, and `${X}` when X is a var or parameter). */
  vars: Set<string>;
  /** Environment variables (`${ENV.X}`, and `${X}` when X is neither var nor parameter). */
  env: Set<string>;
  /** Captures, as `step\0key`. */
  captures: Set<string>;
  /** Constant text the flow itself sends in secret places (a literal token in a header). */
  literals: Set<string>;
  /**
   * Constant text the flow itself sends in the clear (a non-secret header, query parameter or
   * body field, 4 characters or more): its own, never a secret a server issued.
   */
  clear?: Set<string>;
  /**
   * Headers whose constant text the flow wrote under a name that merely looks secret
   * (`Idempotency-Key: <string>`), as `writtenKey(name, text)`: sent as the flow's own text,
   * never registered by the header's name (`written_headers.ts`).
   */
  written?: Set<string>;
  /**
   * The flow's vars whose literal text (`vars: {reqKey: order-7}`) `written` holds as sent under
   * such a header, by name: the text the flow wrote. A run that gives the var another value (a
   * parameter, an include's `with`) registers that value as any var sent in a secret place.
   */
  ownVars?: Map<string, string>;
}

function addRefs(refs: Ref[], into: SecretInputs): void {
  for (const ref of refs) {
    if (ref.kind === "var") into.vars.add(ref.name);
    else if (ref.kind === "env") into.env.add(ref.name);
    else if (ref.kind === "name") {
      into.vars.add(ref.name);
      into.env.add(ref.name);
    } else if (ref.kind === "step") into.captures.add(`${ref.step}\0${ref.key}`);
  }
}

const exprsOf = (t: Template) => t.parts.filter((p): p is Expr => typeof p !== "string");

function refsOfValue(value: ValueTemplate): Ref[] {
  switch (value.kind) {
    case "const":
      return [];
    case "template":
      return exprsOf(value.template).map((e) => e.ref);
    case "list":
      return value.items.flatMap(refsOfValue);
    case "map":
      return value.entries.flatMap(([, v, key]) => [
        ...(key ? exprsOf(key).map((e) => e.ref) : []),
        ...refsOfValue(v),
      ]);
  }
}

/** Whole constant text of a value: a template without expressions, or a constant. */
function constantText(value: ValueTemplate): string[] {
  switch (value.kind) {
    case "const":
      return typeof value.value === "string" || typeof value.value === "number"
        ? [String(value.value)]
        : [];
    case "template":
      return value.template.parts.every((p) => typeof p === "string")
        ? [value.template.parts.join("")]
        : [];
    case "list":
      return value.items.flatMap(constantText);
    case "map":
      return value.entries.flatMap(([, v]) => constantText(v));
  }
}

/** Values under secret-looking keys of a body, at any depth. */
function secretBodyValues(value: ValueTemplate): ValueTemplate[] {
  if (value.kind === "list") return value.items.flatMap(secretBodyValues);
  if (value.kind !== "map") return [];
  return value.entries.flatMap(([k, v]) => isSecretKey(k) ? [v] : secretBodyValues(v));
}

/** Values of a body under no secret-looking key: the body itself, or its fields at any depth. */
function clearBodyValues(value: ValueTemplate): ValueTemplate[] {
  if (value.kind === "list") return value.items.flatMap(clearBodyValues);
  if (value.kind !== "map") return [value];
  return value.entries.flatMap(([k, v]) => isSecretKey(k) ? [] : clearBodyValues(v));
}

/**
 * Refs in a URL that sit in a secret-named query parameter or in the userinfo: before an `@`
 * the URL writes later in its authority. `http://host:8881${vars.route}` holds a path, and its
 * var made every path it held `***`; a userinfo a value brings with its own `@` is found in the
 * URL sent (`userinfo.ts`).
 */
function secretUrlRefs(url: Template): Ref[] {
  const refs: Ref[] = [];
  let before = "";
  url.parts.forEach((part, i) => {
    if (typeof part === "string") {
      before += part;
      return;
    }
    const param = /[?&]([^=&#?]+)=[^&#]*$/.exec(before)?.[1];
    const rest = url.parts.slice(i + 1).map((p) => typeof p === "string" ? p : "x").join("");
    const userinfo = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@]*$/i.test(before) && /^[^/?#]*@/.test(rest);
    if ((param !== undefined && isSecretKey(decodeURIComponentSafe(param))) || userinfo) {
      refs.push(part.ref);
    }
    before += "x";
  });
  return refs;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * What a flow sends in secret places (secret headers, the URL's userinfo,
 * secret-named query parameters and body fields), traced back to the vars,
 * parameters, environment variables and captures it comes from. The runner
 * registers these values as soon as they exist (vars when the flow starts,
 * captures when captured), so a value used in a URL by step 1 and sent as
 * `x-api-key` by step 3 is never written in clear in between.
 *
 * @example
 * ```ts
 * import { loadFlow } from "../load/load_flow.ts";
 * import { secretInputs } from "./flow_inputs.ts";
 * const { flow } = loadFlow(
 *   "name: f\nvars: {k: abc}\nsteps:\n  - name: a\n    request: {url: 'http://x.test/?q=${vars.k}'}\n    capture: {v: $.json.v}\n" +
 *     "  - name: b\n    request:\n      url: http://x.test/\n      headers: {x-api-key: '${vars.k}', authorization: 'Bearer ${steps.a.capture.v}'}\n",
 *   "f.yaml",
 * );
 * const inputs = secretInputs(flow!);
 * if (!inputs.vars.has("k") || !inputs.captures.has("a\0v")) throw new Error();
 * if (inputs.literals.size !== 0 || inputs.clear?.size !== 0) throw new Error();
 * ```
 */
export function secretInputs(flow: Flow): SecretInputs {
  const inputs: SecretInputs = {
    vars: new Set(),
    env: new Set(),
    captures: new Set(),
    literals: new Set(),
  };
  const values: ValueTemplate[] = [];
  const clear: ValueTemplate[] = [];
  const written = new Map<string, OwnText & { sent: ValueTemplate }>();
  const own = ownVars(flow.vars);
  const into = { values, clear, written, own };
  for (const step of flow.steps) {
    const { request } = step;
    for (const [name, value] of request.headers) {
      headerInputs(name, { kind: "template", template: value }, into);
    }
    // A WebSocket, SSE or gRPC step's headers and metadata, by the same rule (its `request`
    // only names the call).
    for (const [name, value] of kindHeaders(step.call)) headerInputs(name, value, into);
    // Cookies are session credentials whatever they are called.
    for (const [, value] of request.cookies ?? []) {
      values.push({ kind: "template", template: value });
    }
    const url = urlSecrets(request.url);
    addRefs(url.refs, inputs);
    for (const literal of url.literals) inputs.literals.add(literal);
    const fields: [string, ValueTemplate][] = [
      ...request.query ?? [],
      ...(request.form ?? []).map(([name, value]) => [name, value] as [string, ValueTemplate]),
      ...(request.multipart ?? []).flatMap((p) =>
        p.kind !== "file" ? [[p.name, p.value] as [string, ValueTemplate]] : []
      ),
    ];
    for (const [name, value] of fields) (isSecretKey(name) ? values : clear).push(value);
    if (request.body) {
      values.push(...secretBodyValues(request.body));
      clear.push(...clearBodyValues(request.body));
    }
  }
  for (const value of values) {
    addRefs(refsOfValue(value), inputs);
    for (const text of constantText(value)) inputs.literals.add(text);
  }
  inputs.clear = clearConstants(clear, inputs.literals);
  keepWritten(written, own, inputs);
  withRenamed(flow.vars, inputs.vars);
  return inputs;
}

/**
 * Sets `inputs.written` and `inputs.ownVars` from the texts written under secret-looking headers.
 * A text the flow also sends in a secret place (a credential header, a password field) is a
 * secret, and so is a var it also sends there (`Authorization: Bearer ${vars.shared}`): then
 * every var such a header reads is secret from the start, as for any other secret header.
 */
function keepWritten(
  written: ReadonlyMap<string, OwnText & { sent: ValueTemplate }>,
  own: OwnVars,
  inputs: SecretInputs,
): void {
  const kept = [...written].filter(([, { text, vars, sent }]) => {
    const mine = !inputs.literals.has(text) && ![...vars].some((name) => inputs.vars.has(name));
    if (!mine) addRefs(refsOfValue(sent), inputs);
    return mine;
  });
  inputs.written = new Set(kept.map(([key]) => key));
  inputs.ownVars = new Map();
  for (const [, { vars }] of kept) {
    for (const name of vars) inputs.ownVars.set(name, own.get(name)!.text);
  }
}

/**
 * A header's template into the values sent in secret places or in the clear. Constant text the
 * flow writes under a name that merely looks secret is its own (`written`: key → text), sent in
 * the clear, and so is such text the flow keeps in its vars (`${vars.reqKey}`, `own`); what any
 * other expression brings there stays secret, wherever it came from.
 */
function headerInputs(
  name: string,
  template: ValueTemplate,
  into: {
    values: ValueTemplate[];
    clear: ValueTemplate[];
    written: Map<string, OwnText & { sent: ValueTemplate }>;
    own: OwnVars;
  },
): void {
  const { values, clear } = into;
  if (name.toLowerCase() === "cookie") {
    if (template.kind !== "template") return void values.push(template);
    const pairs = cookiePairs(template.template);
    values.push(...pairs.values);
    clear.push(...pairs.names);
    // Its constant cookies beside the session an expression brings are the flow's own text.
    for (const [pair, value] of pairs.constant) {
      if (!isWrittenCookieValue(value)) continue;
      const sent: ValueTemplate = { kind: "const", value };
      into.written.set(writtenKey("cookie", pair), { text: value, vars: new Set(), sent });
      clear.push(sent);
    }
  } else if (!isSecretHeader(name)) clear.push(template);
  else {
    // Only one whole text is written as is: a list or map a kind's header holds is no such text.
    const texts = template.kind === "template" || template.kind === "const"
      ? constantText(template)
      : [];
    const own = texts.length > 0
      ? { text: texts[0], vars: new Set<string>() }
      : template.kind === "template"
      ? ownTemplateText(template.template, into.own)
      : undefined;
    if (own === undefined || !isWrittenHeaderText(name, own.text)) values.push(template);
    else {
      into.written.set(writtenKey(name, own.text), { ...own, sent: template });
      clear.push({ kind: "const", value: own.text });
    }
  }
}

/**
 * A `cookie` header's template by where its expressions stand: in a cookie's name (before the `=`
 * of its pair: Syncthing's `CSRF-Token-${steps.home.capture.instance}`, named for the device) an
 * expression is the server's word for the cookie, not a credential; the rest, values and text,
 * is the session's. `constant`: each `name=value` pair written whole without an expression
 * beside one that has an expression (`theme=dark` in `theme=dark; ${ENV.SESSION_COOKIE}`), with
 * its value.
 */
function cookiePairs(
  template: Template,
): { names: ValueTemplate[]; values: ValueTemplate[]; constant: [string, string][] } {
  if (template.parts.every((part) => typeof part === "string")) {
    return { names: [], values: [{ kind: "template", template }], constant: [] };
  }
  const text = template.parts.map((p) => typeof p === "string" ? p : "\0").join("");
  const constant = text.split(";").map((pair) => pair.trim()).filter((pair) =>
    !pair.includes("\0") && pair.indexOf("=") > 0
  ).map((pair): [string, string] => [pair, pair.slice(pair.indexOf("=") + 1).trim()]);
  const names: ValueTemplate[] = [];
  const values: ValueTemplate[] = [];
  let inName = true;
  for (const part of template.parts) {
    if (typeof part !== "string") {
      const one: ValueTemplate = { kind: "template", template: { ...template, parts: [part] } };
      (inName ? names : values).push(one);
      continue;
    }
    for (const ch of part) {
      if (ch === ";") inName = true;
      else if (ch === "=") inName = false;
    }
  }
  return { names, values, constant };
}

/** The constant texts of `values` of 4 characters or more that are not sent in a secret place too. */
function clearConstants(values: ValueTemplate[], literals: ReadonlySet<string>): Set<string> {
  const clear = new Set<string>();
  const add = (text: string) => {
    if (text.trim().length >= 4 && !literals.has(text)) clear.add(text);
  };
  for (const value of values) {
    if (value.kind === "const") clearLeaves(value.value, add);
    else constantText(value).forEach(add);
  }
  return clear;
}

/** The strings and numbers of a constant body (a map written without expressions), but under secret keys. */
function clearLeaves(value: unknown, add: (text: string) => void): void {
  const stack = [value];
  for (let budget = 100_000; stack.length > 0 && budget > 0; budget--) {
    const v = stack.pop();
    if (typeof v === "string" || typeof v === "number") add(String(v));
    else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === "object") {
      for (const [key, item] of Object.entries(v)) if (!isSecretKey(key)) stack.push(item);
    }
  }
}

/**
 * What each URL template puts in secret places, worked out once per template:
 * templates are parsed once per suite and frozen (see `parseTemplate`), so the
 * flows of a suite share them, and every flow run asked again (two regular
 * expressions per expression of every URL: a sixth of a flow's start).
 */
const URL_SECRETS = new WeakMap<Template, { refs: Ref[]; literals: string[] }>();

function urlSecrets(url: Template): { refs: Ref[]; literals: string[] } {
  let found = URL_SECRETS.get(url);
  if (found === undefined) {
    found = { refs: secretUrlRefs(url), literals: secretUrlLiterals(url) };
    URL_SECRETS.set(url, found);
  }
  return found;
}

/** Constant values of secret-named query parameters written in a URL (`?api_key=abc123`). */
function secretUrlLiterals(url: Template): string[] {
  const text = url.parts.map((p) => typeof p === "string" ? p : "\0").join("");
  const query = text.split("?")[1]?.split("#")[0] ?? "";
  return query.split("&").flatMap((pair) => {
    const eq = pair.indexOf("=");
    if (eq < 0) return [];
    const [key, value] = [pair.slice(0, eq), pair.slice(eq + 1)];
    const [name, literal] = [decodeURIComponentSafe(key), decodeURIComponentSafe(value)];
    return isSecretKey(name) && !value.includes("\0") && !isKeyData(name, literal) ? [literal] : [];
  });
}
