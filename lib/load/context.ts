/**
 * The state of loading one flow file and the YAML-node helpers every section
 * uses: positions, problems (with excerpts and hints), maps with their
 * allowed keys, scalars, templates and paths. Sections (`vars.ts`,
 * `steps.ts`, `request.ts`, `captures.ts`, `checks.ts`, `loop.ts`) and
 * `references.ts` read nodes through it and add problems to it.
 *
 * @module
 */
import type { Document, Node, Scalar, YAMLMap } from "yaml";
import { isAlias, isMap, isScalar, isSeq, LineCounter } from "./nodes.ts";
import { type Problem, SyntaxAtError } from "../model/errors.ts";
import {
  compileValue,
  isConstant,
  parseTemplate,
  type Template,
  type ValueTemplate,
} from "../expr/template.ts";
import { formatDuration, parseDuration } from "../_util/duration.ts";
import type { Flow } from "../model/flow.ts";
import { compilePath, compileTemplatePath, type PathRoot } from "../expr/path.ts";
import { suggest } from "../_util/suggest.ts";
import { getOwn } from "../_util/own_property.ts";

/** What the loader checks references against. */
export interface LoadOptions {
  /** Reads an environment variable; unset when it returns `undefined`. Default: nothing is set. */
  env?: (name: string) => string | undefined;
  /** Run parameters (`--var NAME=value`): they override and add to flow vars. */
  params?: ReadonlyMap<string, string>;
  /** Report references to unset environment variables (default `true`). */
  checkEnv?: boolean;
  /**
   * The outputs the run's setup flows hand out (`--setup`): `${setup.NAME}`
   * must name one. Unchecked when absent (a file validated on its own).
   */
  setup?: ReadonlySet<string>;
  /**
   * Loads the flow file a step includes (`include: shared/login.yaml`),
   * given the path as written and the including file: the flow and its path
   * relative to the working directory, or why it cannot be included.
   * `loadFlows` (and so the CLI) provides it, with caching and cycle
   * detection; without it an include is a problem. Internal: not part of the stable API.
   * @ignore
   */
  include?: (path: string, from: string) => IncludeResolution;
  /**
   * Reads a file a flow sends (`body_file`, a multipart file) or checks with
   * (a schema, a PEM file), given the path as written, the flow file and the
   * most bytes it may hold: its bytes, or why it cannot be read with the
   * problem's code (`not-a-regular-file`, `input-too-large`, else
   * `file-read`). `loadFlows` provides it; without it such a flow is a
   * problem. Internal: not part of the stable API.
   * @ignore
   */
  readFile?: (
    path: string,
    from: string,
    limit?: number,
  ) => { bytes: Uint8Array<ArrayBuffer> } | { message: string; code?: string };
}

/** A flow file an include names: the loaded flow, or why it cannot be included. */
export type IncludeResolution =
  | { flow: Flow; file: string }
  | { code: string; message: string; hint: string };

/** Names that expressions reserve; a var may not take them. */
export const RESERVED = new Set(["RUN_ID", "TRACE_ID", "ENV", "RANDOM", "vars", "steps"]);

/** What a var, step or capture name may be: referenced as `${vars.NAME}`. */
export const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** An HTTP token: what a method or a header name may be. */
export const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Characters of a long source line kept around a problem's column. */
export const EXCERPT_WINDOW = 240;

/**
 * Placeholders of other tools that would be sent literally: `{{token}}`
 * (Postman, Bruno, Insomnia) and `{steps.x…}`, `{vars.x}`, `{ENV.X}` with the
 * `$` forgotten.
 */
export const FOREIGN_EXPRESSION =
  /(?<![$\w{])\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}(?!\})|(?<![$\w{])\{((?:steps|vars|ENV)\.[\w.-]+)\}/;

// Hints for keys people bring from other tools, checked before edit-distance suggestions.

/** Hints for keys people bring from other tools, checked before edit-distance suggestions. */
export const KEY_HINTS: Record<string, Record<string, string>> = {
  flow: {
    variables: 'Flow variables go under "vars".',
    env: 'Flow variables go under "vars"; read the environment with ${ENV.NAME}.',
    tests: 'Steps go under "steps".',
    description:
      'A flow has "name", "vars" and "steps"; use a YAML comment (# …) for a description.',
  },
  step: {
    method: 'The method belongs under "request:".',
    url: 'The URL belongs under "request:".',
    headers: 'Headers belong under "request:".',
    body: 'The body belongs under "request:".',
    assertions: 'Did you mean "assert"?',
    expect: 'Did you mean "assert"?',
    check: 'Did you mean "assert"?',
    captures: 'Did you mean "capture"?',
    needs: 'Did you mean "depends_on"?',
    after: 'Did you mean "depends_on"?',
    until: 'Polling conditions go under "loop: {max_attempts, sleep_ms, until}".',
    poll: 'Polling is "loop: {max_attempts, sleep_ms, until}".',
    finally: 'A cleanup step is marked "always: true": it runs even after a failure.',
    defer: 'A cleanup step is marked "always: true": it runs even after a failure.',
    cleanup: 'A cleanup step is marked "always: true": it runs even after a failure.',
    ensure: 'A cleanup step is marked "always: true": it runs even after a failure.',
    always_run: 'Did you mean "always: true"?',
    timeout: 'Set it under "options": options: {timeout: 5s}.',
    retry:
      'Retries go under "options": options: {retry: {count: 3, on: [network, 503]}}; polling until a condition holds is "loop".',
    retries: 'Set it under "options": options: {retry: {count: 3, on: [network, 503]}}.',
    delay: 'Set it under "options": options: {delay: 500ms}.',
    follow_redirects: 'Set it under "options": options: {follow_redirects: true}.',
    with: 'Values are passed with "with" to an included flow: add "include: shared/file.yaml".',
    use: 'Did you mean "include"? It runs another flow file as this step.',
    import: 'Did you mean "include"? It runs another flow file as this step.',
    call: 'Did you mean "include"? It runs another flow file as this step.',
    run: 'Did you mean "include"? It runs another flow file as this step.',
  },
  include: {
    request:
      "A step that includes a flow sends no request of its own: put the request in a step of its own.",
    capture:
      'An included flow hands values back through its "outputs": read them as ${steps.STEP.NAME}.',
    extract:
      'An included flow hands values back through its "outputs": read them as ${steps.STEP.NAME}.',
    assert: "Checks belong in the steps of the included flow.",
    loop: "Polling belongs in the steps of the included flow.",
    options: 'Request options belong in the included flow: its own "options" or its steps\'.',
    vars: 'Did you mean "with"? It sets the included flow\'s vars.',
    params: 'Did you mean "with"? It sets the included flow\'s vars.',
    args: 'Did you mean "with"? It sets the included flow\'s vars.',
    inputs: 'Did you mean "with"? It sets the included flow\'s vars.',
  },
  options: {
    timeout_ms: 'Did you mean "timeout"? It takes a duration: timeout: 5s.',
    redirects: 'Did you mean "follow_redirects"?',
    follow: 'Did you mean "follow_redirects"?',
    retries: 'Did you mean "retry"? e.g. retry: {count: 3, on: [network, 503]}.',
    sleep: 'Did you mean "delay"? It waits before the step\'s first request.',
  },
  part: {
    type: 'Did you mean "content_type"?',
    path: 'Did you mean "file"? It is the path of the file to send, relative to the flow.',
    name: 'Did you mean "filename"? The part\'s own name is its key.',
  },
  graphql: {
    operationName: 'Did you mean "operation_name"?',
    vars: 'Did you mean "variables"?',
    mutation: 'Write a mutation under "query" too: query: "mutation { … }".',
  },
  retry: {
    max_attempts: 'Did you mean "count"? It is the number of retries after the first request.',
    attempts: 'Did you mean "count"? It is the number of retries after the first request.',
    statuses: 'Did you mean "on"? e.g. on: [network, 502, 503].',
    backoff: 'Write the first wait as "delay"; it doubles at each retry.',
  },
  request: {
    json: 'Did you mean "body"? A map body is sent as JSON.',
    data: 'Did you mean "body" (JSON or text) or "form" (URL-encoded)?',
    files: 'Send files with "multipart": {field: {file: path}}, or the raw bytes with "body_file".',
    file: 'Send a file\'s bytes as the body with "body_file: path", or in "multipart".',
    timeout: 'A step\'s timeout goes under its "options": options: {timeout: 5s}.',
    params: 'Did you mean "query"? e.g. query: {limit: 10}',
    qs: 'Did you mean "query"? e.g. query: {limit: 10}',
  },
  assert: {
    body: 'Assert on the body with "json" (paths at $.json) or "jsonpath" (paths at $).',
    headers: 'Assert on headers under "json" with paths like $.headers.content-type.',
    jsonPath: 'Did you mean "jsonpath"?',
  },
  check: {
    eq: 'Did you mean "equals"?',
    equal: 'Did you mean "equals"?',
    ne: 'Did you mean "notEquals"?',
    not_equals: 'Did you mean "notEquals"?',
    in: 'Did you mean "anyOf"? ("in" is only for status.)',
    oneOf: 'Did you mean "anyOf"?',
    regex: 'Did you mean "matches"?',
    match: 'Did you mean "matches"?',
    ge: 'Did you mean "gte"?',
    le: 'Did you mean "lte"?',
    len: 'Did you mean "length"?',
    size: 'Did you mean "length"?',
    count: 'Did you mean "length"?',
    value: 'Name the operator, e.g. "equals: <value>".',
  },
  capture: {
    jsonpath: 'Write the JSONPath under "path".',
    json: 'Write the JSONPath under "path".',
    selector: 'CSS selectors are not supported; use xpath (e.g. xpath: "//h1") or regex.',
    headers: 'Did you mean "header"?',
    cookies: 'Did you mean "cookie"?',
    matches: 'Did you mean "regex"?',
  },
  group: {
    then:
      'The checks of a group go under "checks"; those for when its "if" does not hold under "else".',
    when: 'Did you mean "if"?',
    base: 'Did you mean "at"? It is the path the group\'s checks are relative to.',
    path: 'A group\'s checks are relative to its "at" path.',
    each: 'Give "at" a wildcard path ($.json.items[*]) to check every element.',
  },
  loop: {
    attempts: 'Did you mean "max_attempts"?',
    retries: 'Did you mean "max_attempts"?',
    times: 'Did you mean "max_attempts"?',
    interval: 'Did you mean "sleep_ms"?',
    delay: 'Did you mean "sleep_ms"?',
    wait: 'Did you mean "sleep_ms"?',
    sleep: 'Did you mean "sleep_ms"? The pause is in milliseconds.',
  },
};

/** How to add each required key that is missing. */
export const REQUIRED_HINTS: Record<string, string> = {
  name: 'Add "name: …", e.g. name: checkout.',
  steps: 'Add a "steps:" list with at least one step.',
  request: 'Add "request: {method: GET, url: …}".',
  url: 'Add "url: …", e.g. url: ${ENV.BASE_URL}/health.',
  path: 'Add "path: …", e.g. path: $.json.id.',
  max_attempts: 'Polling must be bounded: add "max_attempts: 10".',
  until:
    "Add the condition to wait for, e.g. until: {json: [{path: $.json.state, equals: ready}]}.",
};

/** A key of a YAML map, its node and its value. */
export interface Entry {
  key: string;
  keyNode: Node;
  value: Node | null;
}

/** Where a template is used, for checking its references once step order is known. */
export interface TemplateUse {
  template: Template;
  node: Node;
  /** Index of the var defining it, or of the step (in listed order) using it. */
  owner: { kind: "var"; index: number } | { kind: "step"; index: number } | { kind: "outputs" };
  /** The alias it was read through, when it is part of an anchor's value. */
  via?: { alias: Node; target: Node };
}

/** Longest quoted value kept whole in a message; longer ones keep their start and end. */
export const MAX_QUOTED = 120;

/**
 * A message with its long quoted values shortened, and at most a few
 * thousand characters: a megabyte key or name is quoted, not copied.
 */
export function bounded(text: string): string {
  const short = text.replace(
    new RegExp(`"([^"\n]{${MAX_QUOTED + 1},})"`, "g"),
    (_, inner: string) =>
      `"${inner.slice(0, MAX_QUOTED - 30)}…${inner.slice(-20)}" (${inner.length} characters)`,
  );
  return short.length > 2000 ? `${short.slice(0, 2000)}…` : short;
}

/** A node or value as a message names it: `the string "200"`, `a list`, `nothing`. */
export function describe(node: unknown): string {
  if (node === null || node === undefined) return "nothing";
  if (isMap(node)) return "a map";
  if (isSeq(node)) return node.items.length === 0 ? "an empty list" : "a list";
  if (isScalar(node)) {
    const v = node.value;
    if (v === null) return "null";
    if (typeof v === "string") {
      return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v)}`;
    }
    return `${typeof v === "number" ? "the number" : "the boolean"} ${String(v)}`;
  }
  return "an unsupported value";
}

/** An empty section (`vars:` with nothing after it): the yaml package gives a null scalar, not null. */
export function isEmpty(node: Node | null): boolean {
  return node === null || (isScalar(node) && node.value === null);
}

/** A value whose parts are all constants, as one constant. */
export function mergeConst(value: ValueTemplate): ValueTemplate {
  if (value.kind === "list" && value.items.every((i) => i.kind === "const")) {
    return { kind: "const", value: value.items.map((i) => (i as { value: unknown }).value) };
  }
  if (value.kind === "map" && value.entries.every(([, v]) => v.kind === "const")) {
    return {
      kind: "const",
      value: Object.fromEntries(
        value.entries.map(([k, v]) => [k, (v as { value: unknown }).value]),
      ),
    };
  }
  return value;
}

/** One flow file being loaded: its text, parse, problems and the templates to check. */
export class Loading {
  readonly problems: Problem[] = [];

  readonly lines = new LineCounter();

  readonly uses: TemplateUse[] = [];

  doc!: Document;

  name?: string;

  text = "";

  /** Each alias node's anchor, resolved once in document order. */
  targets = new Map<Node, Node>();
  /** Every alias read so far, with its anchor's value. */
  readonly aliasUses: { alias: Node; target: Node }[] = [];
  /**
   * Set while problems are reported for something read earlier (a template's
   * references): the alias it was read through then, or `null` for none.
   */
  via: { alias: Node; target: Node } | null | undefined;

  constructor(readonly file: string, readonly options: LoadOptions) {}

  /**
   * The source line a problem is on, or for a long line the part around
   * `column` (and the column that part starts at): one generated line of
   * megabytes is not copied into every problem.
   */
  excerpt(line: number, column: number): Pick<Problem, "excerpt" | "excerptStart"> {
    const lineStarts = this.lines.lineStarts;
    const start = lineStarts[line - 1];
    if (start === undefined) return {};
    const next = lineStarts[line];
    const end = next === undefined ? this.text.length : next - 1;
    if (end - start <= EXCERPT_WINDOW) {
      return { excerpt: this.text.slice(start, end).replace(/\r$/, "") };
    }
    const from = Math.max(
      0,
      Math.min(column - 1 - EXCERPT_WINDOW / 3, end - start - EXCERPT_WINDOW),
    );
    const excerpt = this.text.slice(start + from, start + from + EXCERPT_WINDOW).replace(
      /\r$/,
      "",
    );
    return { excerpt, excerptStart: from + 1 };
  }

  /** The position of a node, or of `offset` characters into a scalar's text. */
  at(node: Node | null | undefined, offset?: number): { line: number; column: number } {
    const start = node?.range?.[0] ?? 0;
    let delta = 0;
    if (offset !== undefined && isScalar(node)) {
      if (node.type === "PLAIN") delta = offset;
      else if (node.type === "QUOTE_DOUBLE" || node.type === "QUOTE_SINGLE") {
        delta = offset + 1;
      }
    }
    const { line, col } = this.lines.linePos(start + delta);
    return { line, column: col };
  }

  /**
   * Records a problem at a node, or at `offset` characters into a scalar
   * (an expression or path inside it) underlining `length` characters.
   */
  problem(
    code: string,
    message: string,
    node: Node | null | undefined,
    hint?: string,
    offset?: number,
    length?: number,
  ): void {
    // A mistake inside an anchor is reported where the alias uses it, naming the anchor.
    const use = this.via !== undefined ? this.via ?? undefined : this.aliasUseOf(node);
    if (use) {
      const anchor = this.at(node, offset);
      const name = (use.alias as { source?: string }).source;
      const where = `in the anchor "&${name}" at line ${anchor.line}:${anchor.column}`;
      const plain = message.replace(/\.$/, "");
      message = plain.endsWith(")") ? `${plain.slice(0, -1)}; ${where}).` : `${plain} (${where}).`;
      node = use.alias;
      offset = undefined;
      length = undefined;
    }
    const { line, column } = this.at(node, offset);
    const span = offset === undefined && node?.range
      ? Math.max(1, node.range[1] - node.range[0])
      : length;
    this.problems.push({
      code,
      message: bounded(message),
      file: this.file,
      line,
      column,
      length: span,
      hint: hint === undefined ? undefined : bounded(hint),
      ...this.excerpt(line, column),
    });
  }

  /** Records a problem at a character offset of the text (before or instead of composing it). */
  problemAt(code: string, message: string, offset: number, hint: string): void {
    // Before parsing no line is counted yet: the only such problem is at the start.
    const { line, col } = this.lines.lineStarts.length > 0
      ? this.lines.linePos(offset)
      : { line: 1, col: 1 };
    this.problems.push({
      code,
      message: bounded(message),
      file: this.file,
      line,
      column: col,
      length: 1,
      hint: bounded(hint),
      ...this.excerpt(line, col),
    });
  }

  // ---- YAML shapes

  deref(node: unknown): Node | null {
    if (isAlias(node)) {
      const target = this.targets.get(node);
      if (!target) {
        this.problem(
          "yaml-syntax",
          `Unknown alias "*${node.source}".`,
          node,
          `Define it first with "&${node.source}".`,
        );
        return null;
      }
      this.aliasUses.push({ alias: node, target: target as Node });
      return target as Node;
    }
    return (node ?? null) as Node | null;
  }

  /**
   * The alias through which `node` (part of an anchor's value) is being read
   * now: sections read nodes in order, so it is the latest use whose anchor
   * holds the node.
   */
  aliasUseOf(node: Node | null | undefined): { alias: Node; target: Node } | undefined {
    const start = node?.range?.[0];
    if (start === undefined) return undefined;
    for (let i = this.aliasUses.length - 1; i >= 0; i--) {
      const use = this.aliasUses[i];
      const [from, to] = use.target.range ?? [0, -1];
      if (start >= from && start < to) return use;
    }
    return undefined;
  }

  entries(node: YAMLMap): Entry[] {
    const explicit: Entry[] = [];
    const merged: Entry[] = [];
    for (const pair of node.items) {
      const keyNode = pair.key as Node;
      const key = isScalar(keyNode) ? keyNode.value : undefined;
      // With `merge: true` the yaml package gives the merge key a symbol value (its source is "<<").
      if (typeof key === "symbol" && (keyNode as Scalar).source === "<<") {
        // YAML merge keys (<<: *defaults): explicit keys of this map win over merged ones.
        const source = this.deref(pair.value);
        const maps = isSeq(source) ? source.items.map((i) => this.deref(i)) : [source];
        for (const m of maps) if (isMap(m)) merged.push(...this.entries(m));
        continue;
      }
      if (typeof key !== "string" && typeof key !== "number") {
        this.problem("wrong-type", `Keys must be plain names, not ${describe(keyNode)}.`, keyNode);
        continue;
      }
      explicit.push({ key: String(key), keyNode, value: this.deref(pair.value) });
    }
    // Most maps merge nothing: their keys are already the answer.
    if (merged.length === 0) return explicit;
    const seen = new Set(explicit.map((e) => e.key));
    return [...merged.filter((e) => !seen.has(e.key) && (seen.add(e.key), true)), ...explicit];
  }

  /**
   * Reads a map with known keys, reporting unknown and missing ones. Missing
   * keys are reported at `anchor` (the key naming the map) when given, since
   * an empty or partial map has no better place to point at.
   */
  map(
    node: Node | null,
    what: string,
    hintSet: keyof typeof KEY_HINTS,
    allowed: readonly string[],
    options: { required?: readonly string[]; ignore?: (key: string) => boolean; anchor?: Node } =
      {},
  ): Map<string, Entry> | undefined {
    if (!isMap(node)) {
      this.problem(
        "wrong-type",
        `Expected ${what} to be a map, got ${describe(node)}.`,
        node ?? options.anchor,
        `Write it as "key: value" lines indented under its parent.`,
      );
      return undefined;
    }
    const out = new Map<string, Entry>();
    // A misspelt required key is one mistake: its unknown-key problem names the fix.
    const meant = new Set<string>();
    for (const entry of this.entries(node)) {
      if (allowed.includes(entry.key)) out.set(entry.key, entry);
      else if (!options.ignore?.(entry.key)) {
        const hint = this.unknownKey(entry, what, hintSet, allowed);
        for (const key of allowed) if (hint.includes(`"${key}"`)) meant.add(key);
      }
    }
    for (const key of options.required ?? []) {
      if (!out.has(key) && !meant.has(key)) {
        this.problem(
          "missing-key",
          `Missing key "${key}" in ${what}.`,
          options.anchor ?? node,
          REQUIRED_HINTS[key],
        );
      }
    }
    return out;
  }

  unknownKey(
    entry: Entry,
    what: string,
    hintSet: keyof typeof KEY_HINTS,
    allowed: readonly string[],
  ): string {
    const close = suggest(entry.key, allowed);
    const known = getOwn(KEY_HINTS[hintSet], entry.key);
    const hint = known ??
      (close ? `Did you mean "${close}"?` : `Allowed keys: ${allowed.join(", ")}.`);
    this.problem("unknown-key", `Unknown key "${entry.key}" in ${what}.`, entry.keyNode, hint);
    return close && !known ? `"${close}"` : hint;
  }

  string(entry: Entry | undefined, what: string): string | undefined {
    if (!entry) return undefined;
    const node = entry.value;
    if (isScalar(node) && typeof node.value === "string" && node.value !== "") return node.value;
    this.problem(
      "wrong-type",
      `Expected ${what} to be a non-empty string, got ${describe(node)}.`,
      node ?? entry.keyNode,
      what === '"name"' ? "Name the flow, e.g. name: checkout." : undefined,
    );
    return undefined;
  }

  integer(entry: Entry, what: string, min: number, max?: number): number | undefined {
    const node = entry.value;
    if (
      isScalar(node) && typeof node.value === "number" && Number.isInteger(node.value) &&
      node.value >= min
    ) {
      if (max === undefined || node.value <= max) return node.value;
      this.problem(
        "out-of-range",
        `Expected ${what} to be at most ${max}, got ${node.value}.`,
        node,
        /retry/.test(what)
          ? `Retries are bounded so a run always ends: at most ${max}.`
          : "Polling is bounded so a run always ends; a longer wait belongs in a separate job.",
      );
      return undefined;
    }
    const text = isScalar(node) && typeof node.value === "string" ? node.value.trim() : "";
    const duration = /^(\d+(?:\.\d+)?)\s*(ms|s|m)$/.exec(text);
    const ms = duration &&
      Math.round(Number(duration[1]) * { ms: 1, s: 1000, m: 60_000 }[duration[2] as "ms"]);
    this.problem(
      "wrong-type",
      `Expected ${what} to be an integer of at least ${min}, got ${describe(node)}.`,
      node ?? entry.keyNode,
      /_ms"/.test(what)
        ? `Write milliseconds as a number${ms !== null ? `: ${ms}` : ", e.g. 1000 for one second"}.`
        : /max_attempts"/.test(what)
        ? "It counts the requests sent, at least 1: e.g. max_attempts: 10."
        : undefined,
    );
    return undefined;
  }

  /**
   * A duration: milliseconds as an integer, or a number with a unit
   * (`500ms`, `5s`, `2m`), from `min` to `max` milliseconds.
   */
  duration(entry: Entry, what: string, min: number, max: number): number | undefined {
    const node = entry.value;
    const v = isScalar(node) ? node.value : undefined;
    const ms = typeof v === "number" && Number.isInteger(v)
      ? v
      : typeof v === "string"
      ? parseDuration(v)
      : undefined;
    if (ms === undefined) {
      this.problem(
        "wrong-type",
        `Expected ${what} to be a duration, got ${describe(node)}.`,
        node ?? entry.keyNode,
        "Write milliseconds as a number (1000) or a number with a unit: 500ms, 5s, 2m.",
      );
      return undefined;
    }
    if (ms < min || ms > max) {
      this.problem(
        "out-of-range",
        `Expected ${what} to be from ${formatDuration(min)} to ${formatDuration(max)}, got ${
          formatDuration(ms)
        }.`,
        node,
        ms > max
          ? "Waits are bounded so a run always ends; a longer wait belongs in a separate job."
          : `Write at least ${min}${min === 0 ? " for none" : "ms"}.`,
      );
      return undefined;
    }
    return ms;
  }

  /** Compiles a YAML value, parsing every string into a template and noting where each is used. */
  value(node: Node | null, owner: TemplateUse["owner"]): ValueTemplate | undefined {
    if (isScalar(node)) {
      if (typeof node.value !== "string") return { kind: "const", value: node.value ?? null };
      const template = this.template(node, owner);
      return template && compileValue(template.source);
    }
    if (isSeq(node)) {
      const items = node.items.map((i) => this.value(this.deref(i), owner));
      if (items.some((i) => i === undefined)) return undefined;
      return mergeConst({ kind: "list", items: items as ValueTemplate[] });
    }
    if (isMap(node)) {
      const entries: [string, ValueTemplate][] = [];
      let ok = true;
      for (const e of this.entries(node)) {
        const v = this.value(e.value, owner);
        if (v) entries.push([e.key, v]);
        else ok = false;
      }
      return ok ? mergeConst({ kind: "map", entries }) : undefined;
    }
    if (node === null) return { kind: "const", value: null };
    return undefined;
  }

  /** Runs a parse of a scalar's text, turning a syntax error into a problem at its column. */
  parse<T>(node: Scalar, parse: () => T): T | undefined {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof SyntaxAtError)) throw error;
      this.problem(error.code, error.message, node, error.hint, error.offset);
      return undefined;
    }
  }

  template(node: Scalar, owner: TemplateUse["owner"]): Template | undefined {
    const text = String(node.value);
    const template = this.parse(node, () => parseTemplate(text));
    if (template) this.uses.push({ template, node, owner, via: this.aliasUseOf(node) });
    // Other tools' placeholders would be sent as they are: say so before anything is sent.
    const foreign = FOREIGN_EXPRESSION.exec(text);
    if (template && foreign) {
      const inner = (foreign[1] ?? foreign[2]).trim();
      this.problem(
        "foreign-expression",
        `"${foreign[0]}" would be sent as it is: flowrun expressions are written \${…}.`,
        node,
        `Write \${${inner}}${
          foreign[1] !== undefined && !inner.includes(".")
            ? ` (a flow var or environment variable; in spelling A \${vars.${inner}} or \${ENV.${inner}})`
            : ""
        }.`,
        foreign.index,
        foreign[0].length,
      );
    }
    return template;
  }

  // ---- flow parts

  path(node: Node | null, root: PathRoot, what: string, owner?: TemplateUse["owner"]) {
    if (!isScalar(node) || typeof node.value !== "string") {
      this.problem(
        "wrong-type",
        `Expected the path of ${what} to be a JSONPath string, got ${describe(node)}.`,
        node,
      );
      return undefined;
    }
    const source = node.value;
    // Expressions inside a path (a filter on a value the run makes) are resolved when it runs.
    if (source.includes("${")) {
      const template = this.parse(node, () => parseTemplate(source));
      if (!template) return undefined;
      if (!isConstant(template)) {
        if (owner) this.uses.push({ template, node, owner, via: this.aliasUseOf(node) });
        return this.parse(node, () => compileTemplatePath(template, root));
      }
    }
    return this.parse(node, () => compilePath(source, root));
  }
}
