/**
 * Loading: flow file text → checked {@linkcode Flow}. Every problem is
 * collected (never just the first) with its line, column and a hint, so a
 * whole flow set can be reported at once before any request is sent.
 *
 * Both spellings load into the same model and may be mixed: `capture` /
 * `assert.json` / `loop.until.json` use paths rooted at the response (`$.json`
 * is the body), `extract` / `assert.jsonpath` use paths rooted at the body.
 *
 * @module
 */
import {
  Composer,
  type CST,
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  Scalar,
  type YAMLMap,
  YAMLParseError,
} from "yaml";
import { type Problem, SyntaxAtError } from "./errors.ts";
import {
  checkAliases,
  MAX_ALIAS_EXPANSION,
  MAX_ATTEMPTS,
  MAX_DEPTH,
  MAX_FILE_BYTES,
  MAX_SLEEP_MS,
  parseBounded,
  tooDeepAt,
} from "./limits.ts";
import {
  compileValue,
  type Expr,
  parseTemplate,
  type Template,
  type ValueTemplate,
} from "./expr.ts";
import {
  type Capture,
  CAPTURE_SOURCES,
  type CaptureSource,
  type Checks,
  type Flow,
  type Loop,
  type Operator,
  OPERATORS,
  type PathCheck,
  type RequestSpec,
  type StatusCheck,
  type Step,
  TYPE_NAMES,
  type VarDef,
} from "./flow.ts";
import { OPERATOR_TABLE, type OperatorSpec } from "./operators.ts";
import { orderSteps } from "./order.ts";
import { compilePattern } from "./regex.ts";
import { compilePath, type PathRoot } from "./path.ts";
import { suggest } from "./suggest.ts";

/** What the loader checks references against. */
export interface LoadOptions {
  /** Reads an environment variable; unset when it returns `undefined`. Default: nothing is set. */
  env?: (name: string) => string | undefined;
  /** Run parameters (`--var NAME=value`): they override and add to flow vars. */
  params?: ReadonlyMap<string, string>;
  /** Report references to unset environment variables (default `true`). */
  checkEnv?: boolean;
}

/** A loaded flow, or the problems that prevent loading it. */
export interface LoadResult {
  /** The flow, when it has no problems. */
  flow?: Flow;
  /** Every problem found, ordered by position. */
  problems: Problem[];
  /** The flow's name when it could be read, also for a file with problems (used by --filter). */
  name?: string;
}

/** Names that expressions reserve; a var may not take them. */
const RESERVED = new Set(["RUN_ID", "TRACE_ID", "ENV", "RANDOM", "vars", "steps"]);
const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Methods the runtime's fetch refuses to send. */
const UNSENDABLE_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/** YAML syntax errors reported per file: past the first few they are mostly echoes of the first. */
const MAX_SYNTAX_ERRORS = 5;

/**
 * Problems listed per file; the rest are counted in one closing problem. A
 * mistake repeated by a generator gave tens of thousands, megabytes of output.
 */
export const MAX_PROBLEMS_PER_FILE = 100;

/** Characters of a long source line kept around a problem's column. */
const EXCERPT_WINDOW = 240;

const DEFAULT_SLEEP_MS = 1000;

/**
 * A line with its unquoted values that break a YAML flow collection (`{ }`
 * or `[ ]`) quoted: JSONPaths with brackets, `${…}` expressions, text with
 * ", " or ": ". `undefined` when the line has no such value.
 */
function quoteFlowValues(line: string): string | undefined {
  // The pattern looks behind at each position: kept to lines a person writes.
  if (line.length > 500 || !/[{[]/.test(line)) return undefined;
  let changed = false;
  const fixed = line.replace(
    /(?<=[{,[]\s*(?:[\w-]+:\s+)?)(?!["'])(\$\{[^}]*\}[^\s,{}]*|\$[.[][^\s,{}]*\[[^\s,{}]*\][^\s,{}]*)/g,
    (value) => {
      changed = true;
      return JSON.stringify(value);
    },
  );
  return changed ? fixed : undefined;
}

/**
 * Placeholders of other tools that would be sent literally: `{{token}}`
 * (Postman, Bruno, Insomnia) and `{steps.x…}`, `{vars.x}`, `{ENV.X}` with the
 * `$` forgotten.
 */
const FOREIGN_EXPRESSION =
  /(?<![$\w{])\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}(?!\})|(?<![$\w{])\{((?:steps|vars|ENV)\.[\w.-]+)\}/;

// Hints for keys people bring from other tools, checked before edit-distance suggestions.
const KEY_HINTS: Record<string, Record<string, string>> = {
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
    retry: 'Polling is "loop: {max_attempts, sleep_ms, until}".',
    poll: 'Polling is "loop: {max_attempts, sleep_ms, until}".',
  },
  request: {
    json: 'Did you mean "body"? A map body is sent as JSON.',
    data: 'Did you mean "body"?',
    query: "Write query parameters into the url: url: ${vars.base}/items?limit=10",
    params: "Write query parameters into the url: url: ${vars.base}/items?limit=10",
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
    xpath: "XPath captures are not supported; use regex on the body text.",
    selector: "CSS selectors are not supported; use regex on the body text.",
    headers: 'Did you mean "header"?',
    cookies: 'Did you mean "cookie"?',
    matches: 'Did you mean "regex"?',
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

const TYPE_HINTS: Record<string, string> = {
  int: "integer",
  float: "number",
  double: "number",
  bool: "boolean",
  str: "string",
  list: "array",
  dict: "object",
  map: "object",
};

interface Entry {
  key: string;
  keyNode: Node;
  value: Node | null;
}

/** Where a template is used, for checking its references once step order is known. */
interface TemplateUse {
  template: Template;
  node: Node;
  /** Index of the var defining it, or of the step (in listed order) using it. */
  owner: { kind: "var"; index: number } | { kind: "step"; index: number };
}

/** A step as listed, with what the cross-step checks need. */
type RawStep = Step & { index: number; dependsOnNode?: Node; nameNode?: Node };

class Loader {
  readonly problems: Problem[] = [];
  readonly #lines = new LineCounter();
  readonly #uses: TemplateUse[] = [];
  #doc!: Document;
  name?: string;
  #text = "";
  /** Each alias node's anchor, resolved once in document order. */
  #targets = new Map<Node, Node>();

  constructor(readonly file: string, readonly options: LoadOptions) {}

  load(text: string): Flow | undefined {
    this.#text = text;
    // Checked before parsing: a 50 MB flow exhausted memory after 100 s.
    if (text.length > MAX_FILE_BYTES) {
      this.problems.push(fileTooLarge(this.file, text.length));
      return undefined;
    }
    // The parser builds its syntax tree without recursion; the composer that turns it into
    // nodes recurses per level, so the depth is measured on the tree before composing.
    const parsed = parseBounded(text, this.#lines.addNewLine, MAX_DEPTH);
    const tokens: CST.Token[] = "tokens" in parsed ? parsed.tokens : [];
    const deep = "tooDeepAt" in parsed ? parsed.tooDeepAt : tooDeepAt(tokens, MAX_DEPTH);
    if (deep !== undefined) {
      this.#problemAt(
        "yaml-too-deep",
        `The YAML nests more than ${MAX_DEPTH} levels deep here.`,
        deep,
        "A flow never needs that much nesting: flatten the value.",
      );
      return undefined;
    }
    this.#doc = compose(tokens, text.length);
    // One problem per line with YAML errors: the parser reports many echoes of one mistake
    // (an unquoted "[" inside { } gave hundreds); past a few lines, the rest are counted.
    const errors = this.#doc.errors;
    const byLine = new Map<number, YAMLParseError[]>();
    for (const e of errors) {
      const at = Math.min(e.pos[0], text.length);
      const line = this.#lines.lineStarts.length > 0 ? this.#lines.linePos(at).line : 1;
      const list = byLine.get(line);
      if (list) list.push(e);
      else byLine.set(line, [e]);
    }
    const lines = [...byLine.entries()];
    const shown = lines.slice(0, MAX_SYNTAX_ERRORS);
    const unshown = lines.slice(MAX_SYNTAX_ERRORS).reduce((n, [, es]) => n + es.length, 0);
    for (const [i, [line, lineErrors]] of shown.entries()) {
      const e = lineErrors[0];
      const echoes = lineErrors.length - 1;
      const more = [
        echoes > 0 ? `${echoes} more on this line, caused by it` : "",
        i === shown.length - 1 && unshown > 0
          ? `${unshown} more syntax error${unshown === 1 ? "" : "s"} after it`
          : "",
      ].filter(Boolean).join("; ");
      const source = text.split("\n", line)[line - 1] ?? "";
      const fixed = quoteFlowValues(source);
      this.#problemAt(
        "yaml-syntax",
        fixed
          ? `YAML syntax error: inside { } or [ ], a value holding "[", "]", "{", "}", ", " or ": " must be quoted${
            more ? ` (${more})` : ""
          }.`
          : `YAML syntax error: ${e.message.split("\n")[0].replace(/\.$/, "")}${
            more ? ` (${more})` : ""
          }.`,
        Math.min(e.pos[0], text.length),
        fixed
          ? `Quote it: ${fixed.trim()}`
          : YAML_HINTS[e.code] ?? "Check the indentation and quoting around this position.",
      );
    }
    if (this.problems.length > 0) return undefined;
    const aliases = checkAliases(this.#doc, MAX_ALIAS_EXPANSION, MAX_DEPTH);
    this.#targets = aliases.targets;
    if (aliases.problem) {
      const { kind, alias } = aliases.problem;
      const name = `"*${(alias as { source?: string }).source}"`;
      if (kind === "too-deep") {
        this.#problem(
          "yaml-too-deep",
          `With the alias ${name} expanded, the YAML nests more than ${MAX_DEPTH} levels deep here.`,
          alias,
          "A flow never needs that much nesting: use fewer aliases of nested values.",
        );
      } else {
        this.#problem(
          "yaml-too-large",
          kind === "cycle"
            ? `The alias ${name} refers to the value it is part of, so it never ends.`
            : `With the alias ${name}, aliases add more than ${
              MAX_ALIAS_EXPANSION.toLocaleString("en-US")
            } YAML nodes to the flow (each use copies its anchor's whole value).`,
          alias,
          kind === "cycle"
            ? "An anchor's value cannot contain an alias of itself; repeat the value instead."
            : "Aliases of values that themselves use aliases multiply; repeat the values instead.",
        );
      }
      return undefined;
    }
    if (!this.#exactNumbers()) return undefined;
    const root = this.#doc.contents;
    if (!root || !isMap(root)) {
      this.#problem(
        "wrong-type",
        `A flow file must be a map with "name" and "steps", not ${describe(root)}.`,
        root,
        'Start the file with "name: my flow" and a "steps:" list.',
      );
      return undefined;
    }
    const top = this.#map(
      root,
      "the flow",
      "flow",
      ["name", "vars", "steps"],
      { required: ["name", "steps"], ignore: (k) => k.startsWith("x-") },
    );
    if (!top) return undefined;
    const name = this.#string(top.get("name"), '"name"');
    this.name = name;
    const vars = this.#vars(top.get("vars"));
    const steps = this.#steps(top.get("steps"));
    if (!steps || name === undefined) return undefined;
    const ordered = this.#order(steps);
    if (ordered) this.#checkReferences(vars, steps, ordered);
    if (this.problems.length > 0 || !ordered) return undefined;
    return {
      file: this.file,
      name,
      vars,
      steps: ordered.map(({ index: _, dependsOnNode: __, nameNode: ___, ...s }) => s),
    };
  }

  // ---- positions and problems

  /**
   * The source line a problem is on, or for a long line the part around
   * `column` (and the column that part starts at): one generated line of
   * megabytes is not copied into every problem.
   */
  #excerpt(line: number, column: number): Pick<Problem, "excerpt" | "excerptStart"> {
    const lineStarts = this.#lines.lineStarts;
    const start = lineStarts[line - 1];
    if (start === undefined) return {};
    const next = lineStarts[line];
    const end = next === undefined ? this.#text.length : next - 1;
    if (end - start <= EXCERPT_WINDOW) {
      return { excerpt: this.#text.slice(start, end).replace(/\r$/, "") };
    }
    const from = Math.max(
      0,
      Math.min(column - 1 - EXCERPT_WINDOW / 3, end - start - EXCERPT_WINDOW),
    );
    const excerpt = this.#text.slice(start + from, start + from + EXCERPT_WINDOW).replace(
      /\r$/,
      "",
    );
    return { excerpt, excerptStart: from + 1 };
  }

  /** The position of a node, or of `offset` characters into a scalar's text. */
  #at(node: Node | null | undefined, offset?: number): { line: number; column: number } {
    const start = node?.range?.[0] ?? 0;
    let delta = 0;
    if (offset !== undefined && isScalar(node)) {
      if (node.type === Scalar.PLAIN) delta = offset;
      else if (node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE) {
        delta = offset + 1;
      }
    }
    const { line, col } = this.#lines.linePos(start + delta);
    return { line, column: col };
  }

  /**
   * Records a problem at a node, or at `offset` characters into a scalar
   * (an expression or path inside it) underlining `length` characters.
   */
  #problem(
    code: string,
    message: string,
    node: Node | null | undefined,
    hint?: string,
    offset?: number,
    length?: number,
  ): void {
    const { line, column } = this.#at(node, offset);
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
      ...this.#excerpt(line, column),
    });
  }

  /**
   * Turns the parser's BigInt integers back into numbers, and reports a
   * number JSON cannot carry as written: an integer past 2^53 would silently
   * become another number, and an infinite or NaN one (`.inf`, `1e400`)
   * would be sent as null.
   */
  #exactNumbers(): boolean {
    let exact = true;
    const stack: unknown[] = [this.#doc.contents];
    while (stack.length > 0) {
      const node = stack.pop();
      if (isScalar(node)) {
        if (typeof node.value === "bigint") {
          const n = Number(node.value);
          if (Number.isSafeInteger(n)) {
            node.value = n;
            continue;
          }
          exact = false;
          this.#problem(
            "out-of-range",
            `The integer ${node.value} is too large to keep exactly (past 2^53); it would be sent as ${n}.`,
            node,
            `Quote it to send it as text: "${node.value}".`,
          );
        } else if (typeof node.value === "number" && !Number.isFinite(node.value)) {
          exact = false;
          const written = node.source ?? String(node.value);
          this.#problem(
            "out-of-range",
            `The number ${written} is not a finite number; JSON cannot carry it (it would be sent as null).`,
            node,
            `Quote it to send it as text: "${written}".`,
          );
        }
      } else if (isMap(node)) {
        for (const pair of node.items) stack.push(pair.key, pair.value);
      } else if (isSeq(node)) stack.push(...node.items);
    }
    return exact;
  }

  /** Records a problem at a character offset of the text (before or instead of composing it). */
  #problemAt(code: string, message: string, offset: number, hint: string): void {
    // Before parsing no line is counted yet: the only such problem is at the start.
    const { line, col } = this.#lines.lineStarts.length > 0
      ? this.#lines.linePos(offset)
      : { line: 1, col: 1 };
    this.problems.push({
      code,
      message: bounded(message),
      file: this.file,
      line,
      column: col,
      length: 1,
      hint: bounded(hint),
      ...this.#excerpt(line, col),
    });
  }

  // ---- YAML shapes

  #deref(node: unknown): Node | null {
    if (isAlias(node)) {
      const target = this.#targets.get(node);
      if (!target) {
        this.#problem(
          "yaml-syntax",
          `Unknown alias "*${node.source}".`,
          node,
          `Define it first with "&${node.source}".`,
        );
        return null;
      }
      return target as Node;
    }
    return (node ?? null) as Node | null;
  }

  #entries(node: YAMLMap): Entry[] {
    const explicit: Entry[] = [];
    const merged: Entry[] = [];
    for (const pair of node.items) {
      const keyNode = pair.key as Node;
      const key = isScalar(keyNode) ? keyNode.value : undefined;
      // With `merge: true` the yaml package gives the merge key a symbol value (its source is "<<").
      if (typeof key === "symbol" && (keyNode as Scalar).source === "<<") {
        // YAML merge keys (<<: *defaults): explicit keys of this map win over merged ones.
        const source = this.#deref(pair.value);
        const maps = isSeq(source) ? source.items.map((i) => this.#deref(i)) : [source];
        for (const m of maps) if (isMap(m)) merged.push(...this.#entries(m));
        continue;
      }
      if (typeof key !== "string" && typeof key !== "number") {
        this.#problem("wrong-type", `Keys must be plain names, not ${describe(keyNode)}.`, keyNode);
        continue;
      }
      explicit.push({ key: String(key), keyNode, value: this.#deref(pair.value) });
    }
    const seen = new Set(explicit.map((e) => e.key));
    return [...merged.filter((e) => !seen.has(e.key) && (seen.add(e.key), true)), ...explicit];
  }

  /**
   * Reads a map with known keys, reporting unknown and missing ones. Missing
   * keys are reported at `anchor` (the key naming the map) when given, since
   * an empty or partial map has no better place to point at.
   */
  #map(
    node: Node | null,
    what: string,
    hintSet: keyof typeof KEY_HINTS,
    allowed: readonly string[],
    options: { required?: readonly string[]; ignore?: (key: string) => boolean; anchor?: Node } =
      {},
  ): Map<string, Entry> | undefined {
    if (!isMap(node)) {
      this.#problem(
        "wrong-type",
        `Expected ${what} to be a map, got ${describe(node)}.`,
        node ?? options.anchor,
        `Write it as "key: value" lines indented under its parent.`,
      );
      return undefined;
    }
    const out = new Map<string, Entry>();
    for (const entry of this.#entries(node)) {
      if (allowed.includes(entry.key)) out.set(entry.key, entry);
      else if (!options.ignore?.(entry.key)) this.#unknownKey(entry, what, hintSet, allowed);
    }
    for (const key of options.required ?? []) {
      if (!out.has(key)) {
        this.#problem(
          "missing-key",
          `Missing key "${key}" in ${what}.`,
          options.anchor ?? node,
          REQUIRED_HINTS[key],
        );
      }
    }
    return out;
  }

  #unknownKey(
    entry: Entry,
    what: string,
    hintSet: keyof typeof KEY_HINTS,
    allowed: readonly string[],
  ): void {
    const close = suggest(entry.key, allowed);
    const hint = KEY_HINTS[hintSet][entry.key] ??
      (close ? `Did you mean "${close}"?` : `Allowed keys: ${allowed.join(", ")}.`);
    this.#problem("unknown-key", `Unknown key "${entry.key}" in ${what}.`, entry.keyNode, hint);
  }

  #string(entry: Entry | undefined, what: string): string | undefined {
    if (!entry) return undefined;
    const node = entry.value;
    if (isScalar(node) && typeof node.value === "string" && node.value !== "") return node.value;
    this.#problem(
      "wrong-type",
      `Expected ${what} to be a non-empty string, got ${describe(node)}.`,
      node ?? entry.keyNode,
    );
    return undefined;
  }

  #integer(entry: Entry, what: string, min: number, max?: number): number | undefined {
    const node = entry.value;
    if (
      isScalar(node) && typeof node.value === "number" && Number.isInteger(node.value) &&
      node.value >= min
    ) {
      if (max === undefined || node.value <= max) return node.value;
      this.#problem(
        "out-of-range",
        `Expected ${what} to be at most ${max}, got ${node.value}.`,
        node,
        "Polling is bounded so a run always ends; a longer wait belongs in a separate job.",
      );
      return undefined;
    }
    const text = isScalar(node) && typeof node.value === "string" ? node.value.trim() : "";
    const duration = /^(\d+(?:\.\d+)?)\s*(ms|s|m)$/.exec(text);
    const ms = duration &&
      Math.round(Number(duration[1]) * { ms: 1, s: 1000, m: 60_000 }[duration[2] as "ms"]);
    this.#problem(
      "wrong-type",
      `Expected ${what} to be an integer of at least ${min}, got ${describe(node)}.`,
      node ?? entry.keyNode,
      /_ms"/.test(what)
        ? `Write milliseconds as a number${ms !== null ? `: ${ms}` : ", e.g. 1000 for one second"}.`
        : undefined,
    );
    return undefined;
  }

  /** Compiles a YAML value, parsing every string into a template and noting where each is used. */
  #value(node: Node | null, owner: TemplateUse["owner"]): ValueTemplate | undefined {
    if (isScalar(node)) {
      if (typeof node.value !== "string") return { kind: "const", value: node.value ?? null };
      const template = this.#template(node, owner);
      return template && compileValue(template.source);
    }
    if (isSeq(node)) {
      const items = node.items.map((i) => this.#value(this.#deref(i), owner));
      if (items.some((i) => i === undefined)) return undefined;
      return mergeConst({ kind: "list", items: items as ValueTemplate[] });
    }
    if (isMap(node)) {
      const entries: [string, ValueTemplate][] = [];
      let ok = true;
      for (const e of this.#entries(node)) {
        const v = this.#value(e.value, owner);
        if (v) entries.push([e.key, v]);
        else ok = false;
      }
      return ok ? mergeConst({ kind: "map", entries }) : undefined;
    }
    if (node === null) return { kind: "const", value: null };
    return undefined;
  }

  /** Runs a parse of a scalar's text, turning a syntax error into a problem at its column. */
  #parse<T>(node: Scalar, parse: () => T): T | undefined {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof SyntaxAtError)) throw error;
      this.#problem(error.code, error.message, node, error.hint, error.offset);
      return undefined;
    }
  }

  #template(node: Scalar, owner: TemplateUse["owner"]): Template | undefined {
    const text = String(node.value);
    const template = this.#parse(node, () => parseTemplate(text));
    if (template) this.#uses.push({ template, node, owner });
    // Other tools' placeholders would be sent as they are: say so before anything is sent.
    const foreign = FOREIGN_EXPRESSION.exec(text);
    if (template && foreign) {
      const inner = (foreign[1] ?? foreign[2]).trim();
      this.#problem(
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

  #vars(entry: Entry | undefined): VarDef[] {
    if (!entry || isEmpty(entry.value)) return [];
    if (!isMap(entry.value)) {
      this.#problem(
        "wrong-type",
        `Expected "vars" to be a map of names to values, got ${describe(entry.value)}.`,
        entry.value,
        "For example: vars: {user: demo}",
      );
      return [];
    }
    const vars: VarDef[] = [];
    for (const e of this.#entries(entry.value)) {
      if (!NAME.test(e.key) || RESERVED.has(e.key)) {
        this.#problem(
          "bad-name",
          RESERVED.has(e.key)
            ? `"${e.key}" is reserved and cannot be a var name.`
            : `Var name "${e.key}" cannot be referenced.`,
          e.keyNode,
          e.key === "RUN_ID"
            ? "Set the run id with --run-id."
            : 'Use letters, digits, "_" and "-", starting with a letter, e.g. user_id.',
        );
        continue;
      }
      if (!isScalar(e.value) && e.value !== null) {
        this.#problem(
          "wrong-type",
          `Expected var "${e.key}" to be a string, number or boolean, got ${describe(e.value)}.`,
          e.value,
          "Vars hold single values; put structured data in the request body.",
        );
        continue;
      }
      const value = this.#value(e.value, { kind: "var", index: vars.length });
      if (value) vars.push({ name: e.key, value });
    }
    return vars;
  }

  #steps(entry: Entry | undefined): RawStep[] | undefined {
    if (!entry) return undefined;
    const node = entry.value;
    if (!isSeq(node) || node.items.length === 0) {
      this.#problem(
        "wrong-type",
        `Expected "steps" to be a non-empty list, got ${describe(node)}.`,
        node ?? entry.keyNode,
        'Write each step as a list item: "- name: login".',
      );
      return undefined;
    }
    const steps: RawStep[] = [];
    const first = new Map<string, RawStep>();
    node.items.forEach((item, index) => {
      const step = this.#step(this.#deref(item), index);
      if (!step) return;
      const earlier = first.get(step.name);
      if (earlier && step.nameNode) {
        this.#problem(
          "duplicate-step",
          `Duplicate step name "${step.name}".`,
          step.nameNode,
          `Step names must be unique in a flow; the first "${step.name}" is at line ${earlier.line}.`,
        );
      } else if (step.nameNode) first.set(step.name, step);
      steps.push(step);
    });
    return steps;
  }

  #step(node: Node | null, index: number): RawStep | undefined {
    // Name the step in messages about its other keys, even before its map is checked.
    const named = isMap(node)
      ? node.items.find((p) => isScalar(p.key) && p.key.value === "name")?.value
      : undefined;
    const what = isScalar(named) && typeof named.value === "string"
      ? `step "${named.value}"`
      : `step ${index + 1}`;
    const map = this.#map(node, what, "step", [
      "name",
      "request",
      "capture",
      "extract",
      "depends_on",
      "assert",
      "loop",
    ], { required: ["name", "request"] });
    if (!map) return undefined;
    const name = this.#string(map.get("name"), `the name of ${what}`);
    const label = name === undefined ? what : `step "${name}"`;
    const owner = { kind: "step", index } as const;
    const request = this.#request(map.get("request"), label, owner);
    const captures = this.#captures(map.get("capture"), map.get("extract"), label);
    const assertEntry = map.get("assert");
    const checks = assertEntry
      ? this.#checks(assertEntry.value, `"assert" of ${label}`, owner)
      : undefined;
    const loopEntry = map.get("loop");
    const loop = loopEntry ? this.#loop(loopEntry, label, owner) : undefined;
    const dependsEntry = map.get("depends_on");
    const dependsOn = dependsEntry ? this.#names(dependsEntry, `"depends_on" of ${label}`) : [];
    return {
      name: name ?? `#${index + 1}`,
      ...this.#at(node),
      // A step with problems is never run; placeholders keep the cross-step checks going.
      request: request ?? { method: "GET", url: parseTemplate(""), headers: [] },
      captures,
      dependsOn,
      assert: checks ?? { paths: [] },
      loop,
      index,
      dependsOnNode: dependsEntry?.value ?? undefined,
      nameNode: name === undefined ? undefined : map.get("name")!.value!,
    };
  }

  #request(
    entry: Entry | undefined,
    label: string,
    owner: TemplateUse["owner"],
  ): RequestSpec | undefined {
    if (!entry) return undefined;
    const what = `"request" of ${label}`;
    const map = this.#map(entry.value, what, "request", ["method", "url", "headers", "body"], {
      required: ["url"],
      anchor: entry.keyNode,
    });
    if (!map) return undefined;
    let method = "GET";
    const methodEntry = map.get("method");
    if (methodEntry) {
      const m = this.#string(methodEntry, `"method" of ${label}`);
      if (m !== undefined && !METHOD.test(m)) {
        this.#problem(
          "bad-method",
          `"${m}" is not an HTTP method.`,
          methodEntry.value,
          "Use GET, POST, PUT, PATCH, DELETE, …",
        );
      } else if (m !== undefined && UNSENDABLE_METHODS.has(m.toUpperCase())) {
        this.#problem(
          "bad-method",
          `"${m}" requests cannot be sent by flowrun: the HTTP client forbids them.`,
          methodEntry.value,
          "CONNECT opens tunnels and TRACE/TRACK echo requests back; test such endpoints with another tool.",
        );
      } else if (m !== undefined) method = m.toUpperCase();
    }
    let url: Template | undefined;
    const urlEntry = map.get("url");
    if (urlEntry) {
      const node = urlEntry.value;
      if (isScalar(node) && typeof node.value === "string" && node.value !== "") {
        url = this.#template(node, owner);
        if (url && url.parts.length === 1 && typeof url.parts[0] === "string") {
          if (!/^https?:\/\/[^/]/i.test(url.source) || !URL.canParse(url.source)) {
            this.#problem(
              "bad-url",
              `"${url.source}" is not an absolute http or https URL.`,
              node,
              "Write the full URL, e.g. ${ENV.BASE_URL}/items or https://api.example.com/items.",
            );
          }
        }
      } else {this.#problem(
          "wrong-type",
          `Expected the url of ${label} to be a string, got ${describe(node)}.`,
          node ?? urlEntry.keyNode,
        );}
    }
    const headers: [string, Template][] = [];
    const headersEntry = map.get("headers");
    if (headersEntry && !isEmpty(headersEntry.value)) {
      if (!isMap(headersEntry.value)) {
        this.#problem(
          "wrong-type",
          `Expected the headers of ${label} to be a map, got ${describe(headersEntry.value)}.`,
          headersEntry.value,
        );
      } else {
        const seen = new Map<string, string>();
        for (const h of this.#entries(headersEntry.value)) {
          const lower = h.key.toLowerCase();
          if (!METHOD.test(h.key)) {
            this.#problem("bad-header", `"${h.key}" is not a valid header name.`, h.keyNode);
            continue;
          }
          if (seen.has(lower)) {
            this.#problem(
              "duplicate-header",
              `Header "${h.key}" is set twice in ${label} (also as "${seen.get(lower)}").`,
              h.keyNode,
              "Header names are case-insensitive; keep one.",
            );
            continue;
          }
          seen.set(lower, h.key);
          if (!isScalar(h.value) || h.value.value === null) {
            this.#problem(
              "wrong-type",
              `Expected header "${h.key}" to be a string, got ${describe(h.value)}.`,
              h.value ?? h.keyNode,
            );
            continue;
          }
          if (typeof h.value.value === "string" && /[\r\n\0]/.test(h.value.value)) {
            this.#problem(
              "bad-header",
              `The value of header "${h.key}" holds a line break or NUL, which HTTP forbids.`,
              h.value,
              "Put it on one line (a YAML block scalar with | keeps line breaks; use a quoted string).",
            );
            continue;
          }
          const wide = typeof h.value.value === "string"
            ? /[\u0100-\u{10ffff}]/u.exec(h.value.value)
            : null;
          if (wide) {
            const code = wide[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
            this.#problem(
              "bad-header",
              `The value of header "${h.key}" holds "${
                wide[0]
              }" (U+${code}), which an HTTP header value cannot carry.`,
              h.value,
              "Header values are Latin-1 text: percent-encode it (e.g. encodeURIComponent) or send it in the body.",
              wide.index,
              wide[0].length,
            );
            continue;
          }
          const template = typeof h.value.value === "string"
            ? this.#template(h.value, owner)
            : parseTemplate(String(h.value.value).replaceAll("${", "$${"));
          if (template) headers.push([h.key, template]);
        }
      }
    }
    const bodyEntry = map.get("body");
    const body = bodyEntry ? this.#value(bodyEntry.value, owner) : undefined;
    if (bodyEntry && !isEmpty(bodyEntry.value) && (method === "GET" || method === "HEAD")) {
      this.#problem(
        "bad-method",
        `A ${method} request cannot have a body: the HTTP client refuses to send one.`,
        bodyEntry.keyNode,
        "Send the data in the URL's query, or use POST.",
      );
    }
    if (!url) return undefined;
    return { method, url, headers, body };
  }

  #captures(capture: Entry | undefined, extract: Entry | undefined, label: string): Capture[] {
    const out: Capture[] = [];
    const seen = new Set<string>();
    for (
      const [entry, root, key] of [[capture, "response", "capture"], [
        extract,
        "body",
        "extract",
      ]] as const
    ) {
      if (!entry || isEmpty(entry.value)) continue;
      if (!isMap(entry.value)) {
        this.#problem(
          "wrong-type",
          `Expected "${key}" of ${label} to be a map of name to JSONPath, got ${
            describe(entry.value)
          }.`,
          entry.value,
          root === "response"
            ? "For example: capture: {token: $.json.token}"
            : "For example: extract: {token: $.token}",
        );
        continue;
      }
      for (const e of this.#entries(entry.value)) {
        if (!NAME.test(e.key)) {
          this.#problem(
            "bad-name",
            `Capture name "${e.key}" cannot be referenced.`,
            e.keyNode,
            'Use letters, digits, "_" and "-", e.g. order_id.',
          );
          continue;
        }
        if (seen.has(e.key)) {
          this.#problem(
            "duplicate-capture",
            `${label} captures "${e.key}" twice.`,
            e.keyNode,
            "Give each captured value its own name.",
          );
          continue;
        }
        seen.add(e.key);
        const what = `capture "${e.key}" of ${label}`;
        const from = isMap(e.value)
          ? this.#captureSource(e.value, root, what)
          : this.#pathSource(e.value, root, what, false);
        if (from) {
          const at = this.#at(e.keyNode);
          out.push({ name: e.key, from, line: at.line, column: at.column });
        }
      }
    }
    return out;
  }

  #pathSource(
    node: Node | null,
    root: PathRoot,
    what: string,
    first: boolean,
  ): CaptureSource | undefined {
    const path = this.#path(node, root, what);
    return path ? { kind: "path", path, first } : undefined;
  }

  /** `{path, first}`, `{header}`, `{cookie}` or `{regex}`: exactly one source. */
  #captureSource(node: YAMLMap, root: PathRoot, what: string): CaptureSource | undefined {
    const map = this.#map(node, what, "capture", [...CAPTURE_SOURCES, "first"]);
    if (!map) return undefined;
    const sources = CAPTURE_SOURCES.filter((k) => map.has(k));
    // An unknown key was the mistake (xpath, say): it is reported already, with its hint.
    if (sources.length === 0 && node.items.length > map.size) return undefined;
    if (sources.length !== 1) {
      this.#problem(
        sources.length === 0 ? "missing-key" : "wrong-type",
        sources.length === 0
          ? `Expected ${what} to name its source.`
          : `Expected ${what} to have one source, got ${sources.join(" and ")}.`,
        sources.length === 0 ? node : map.get(sources[1])!.keyNode,
        `Use one of: path (a JSONPath), header, cookie or regex, e.g. {cookie: session}.`,
      );
      return undefined;
    }
    const first = map.get("first");
    if (first && sources[0] !== "path") {
      this.#problem(
        "unknown-key",
        `"first" applies to a path, not to ${sources[0]}, in ${what}.`,
        first.keyNode,
        "Remove it: a header, cookie or regex capture is one value already.",
      );
      return undefined;
    }
    if (first && !(isScalar(first.value) && typeof first.value.value === "boolean")) {
      this.#problem(
        "wrong-type",
        `Expected "first" in ${what} to be true or false, got ${describe(first.value)}.`,
        first.value ?? first.keyNode,
        "Write first: true to keep the first match of a path that can match several values.",
      );
      return undefined;
    }
    const entry = map.get(sources[0])!;
    if (sources[0] === "path") {
      return this.#pathSource(
        entry.value,
        root,
        what,
        (first?.value as Scalar | undefined)?.value === true,
      );
    }
    const v = isScalar(entry.value) ? entry.value.value : undefined;
    if (typeof v !== "string" || v === "") {
      this.#problem(
        "wrong-type",
        `Expected "${sources[0]}" in ${what} to be a non-empty string, got ${
          describe(entry.value)
        }.`,
        entry.value ?? entry.keyNode,
        sources[0] === "regex"
          ? `For example: regex: 'name="csrf" content="([^"]+)"' (the first group is kept).`
          : `For example: ${sources[0]}: ${sources[0] === "header" ? "x-request-id" : "session"}`,
      );
      return undefined;
    }
    if (sources[0] === "header") {
      if (!METHOD.test(v)) {
        this.#problem(
          "bad-header",
          `Header name "${v}" in ${what} is not an HTTP token.`,
          entry.value,
          "Use letters, digits and -, e.g. x-request-id.",
        );
        return undefined;
      }
      return { kind: "header", name: v.toLowerCase() };
    }
    if (sources[0] === "cookie") return { kind: "cookie", name: v };
    try {
      return { kind: "regex", pattern: compilePattern(v), source: v };
    } catch (error) {
      this.#problem(
        "bad-regex",
        `Invalid regular expression "${v}": ${
          (error as Error).message.replace(/^Invalid regular expression: /, "")
        }.`,
        entry.value,
        "Escape special characters with a backslash, e.g. \\. for a dot.",
      );
      return undefined;
    }
  }

  #path(node: Node | null, root: PathRoot, what: string) {
    if (!isScalar(node) || typeof node.value !== "string") {
      this.#problem(
        "wrong-type",
        `Expected the path of ${what} to be a JSONPath string, got ${describe(node)}.`,
        node,
      );
      return undefined;
    }
    const source = node.value;
    return this.#parse(node, () => compilePath(source, root));
  }

  #checks(node: Node | null, what: string, owner: TemplateUse["owner"]): Checks | undefined {
    const map = this.#map(node, what, "assert", ["status", "json", "jsonpath"]);
    if (!map) return undefined;
    const checks: Checks = { paths: [] };
    const status = map.get("status");
    if (status) checks.status = this.#status(status, what);
    for (const [key, root] of [["json", "response"], ["jsonpath", "body"]] as const) {
      const entry = map.get(key);
      if (!entry) continue;
      if (!isSeq(entry.value)) {
        this.#problem(
          "wrong-type",
          `Expected "${key}" in ${what} to be a list of checks, got ${describe(entry.value)}.`,
          entry.value ?? entry.keyNode,
          `Write each check as a list item: "- {path: ${
            root === "response" ? "$.json.id" : "$.id"
          }, exists: true}".`,
        );
        continue;
      }
      for (const item of entry.value.items) {
        checks.paths.push(...this.#pathChecks(this.#deref(item), root, what, owner));
      }
    }
    return checks;
  }

  #status(entry: Entry, what: string): StatusCheck | undefined {
    const node = entry.value;
    const at = this.#at(entry.keyNode);
    const isCode = (n: Node | null) =>
      isScalar(n) && Number.isInteger(n.value) && (n.value as number) >= 100 &&
      (n.value as number) <= 599;
    if (isCode(node)) {
      return { operator: "equals", expected: [(node as Scalar).value as number], ...at };
    }
    if (isMap(node)) {
      const map = this.#map(node, `"status" in ${what}`, "check", ["anyOf", "in"]);
      const [key, list] = map?.get("anyOf")
        ? ["anyOf", map.get("anyOf")] as const
        : ["in", map?.get("in")] as const;
      if (map && map.size > 1) {
        this.#problem("wrong-type", `Use either "anyOf" or "in" for "status", not both.`, node);
      }
      if (list && isSeq(list.value) && list.value.items.length > 0) {
        const codes = list.value.items.map((i) => this.#deref(i));
        const bad = codes.find((c) => !isCode(c));
        if (bad === undefined) {
          return {
            operator: key,
            expected: codes.map((c) => (c as Scalar).value as number),
            ...at,
          };
        }
        this.#problem(
          "wrong-type",
          `Expected a status code from 100 to 599, got ${describe(bad)}.`,
          bad ?? list.value,
        );
        return undefined;
      }
      if (map && map.size > 0) {
        this.#problem(
          "wrong-type",
          `Expected "${key}" to be a non-empty list of status codes.`,
          list?.value ?? node,
        );
        return undefined;
      }
    }
    if (!isMap(node) || (isMap(node) && node.items.length === 0)) {
      this.#problem(
        "wrong-type",
        `Expected "status" to be a status code or {anyOf: [...]}, got ${describe(node)}.`,
        node ?? entry.keyNode,
        "For example: status: 200, status: {anyOf: [200, 201]} or status: {in: [200, 201]}.",
      );
    }
    return undefined;
  }

  #pathChecks(
    node: Node | null,
    root: PathRoot,
    what: string,
    owner: TemplateUse["owner"],
  ): PathCheck[] {
    const map = this.#map(node, `a check in ${what}`, "check", ["path", ...OPERATORS], {
      required: ["path"],
    });
    if (!map) return [];
    const pathEntry = map.get("path");
    const path = pathEntry && this.#path(pathEntry.value, root, `a check in ${what}`);
    const operators = [...map.keys()].filter((k) => k !== "path") as Operator[];
    // An unknown key (eq, regex, …) is the mistake, already reported with its fix.
    const unknownKeys = isMap(node) && node.items.length > map.size;
    if (operators.length === 0 && map.size > 0 && !unknownKeys) {
      this.#problem(
        "missing-key",
        `The check of "${pathEntry?.value}" has no operator.`,
        node,
        `Add one of: ${OPERATORS.join(", ")}; e.g. "exists: true".`,
      );
    }
    const out: PathCheck[] = [];
    for (const operator of operators) {
      const entry = map.get(operator)!;
      const expected = this.#expected(operator, entry, owner);
      if (path && expected) out.push({ path, operator, expected, ...this.#at(entry.keyNode) });
    }
    return out;
  }

  /** Compiles an operator's expected value and checks its type when it is a constant. */
  #expected(
    operator: Operator,
    entry: Entry,
    owner: TemplateUse["owner"],
  ): ValueTemplate | undefined {
    const value = this.#value(entry.value, owner);
    if (!value || value.kind !== "const") return value;
    const v = value.value;
    const fail = (expected: string, hint?: string) => {
      this.#problem(
        "wrong-type",
        `Expected "${operator}" to be ${expected}, got ${describe(entry.value)}.`,
        entry.value ?? entry.keyNode,
        hint,
      );
      return undefined;
    };
    if (operator === "type") {
      if (typeof v === "string" && (TYPE_NAMES as readonly string[]).includes(v)) return value;
      const close = typeof v === "string" ? TYPE_HINTS[v] ?? suggest(v, TYPE_NAMES) : undefined;
      return fail(
        `one of ${TYPE_NAMES.join(", ")}`,
        close ? `Did you mean "${close}"?` : undefined,
      );
    }
    const spec: OperatorSpec = OPERATOR_TABLE[operator];
    if (spec.accepts && !spec.accepts(v)) return fail(spec.expects ?? "another value", spec.hint);
    if (operator === "matches") {
      try {
        compilePattern(v as string);
      } catch (error) {
        this.#problem(
          "bad-regex",
          `Invalid regular expression "${v}": ${
            (error as Error).message.replace(/^Invalid regular expression: /, "")
          }.`,
          entry.value,
          "Escape special characters with a backslash, e.g. \\. for a dot.",
        );
        return undefined;
      }
    }
    return value;
  }

  #loop(entry: Entry, label: string, owner: TemplateUse["owner"]): Loop | undefined {
    const what = `"loop" of ${label}`;
    const map = this.#map(entry.value, what, "loop", ["max_attempts", "sleep_ms", "until"], {
      required: ["max_attempts", "until"],
      anchor: entry.keyNode,
    });
    if (!map) return undefined;
    const maxEntry = map.get("max_attempts");
    const maxAttempts = maxEntry &&
      this.#integer(maxEntry, `"max_attempts" of ${label}`, 1, MAX_ATTEMPTS);
    const sleepEntry = map.get("sleep_ms");
    const sleepMs = sleepEntry
      ? this.#integer(sleepEntry, `"sleep_ms" of ${label}`, 0, MAX_SLEEP_MS)
      : DEFAULT_SLEEP_MS;
    const untilEntry = map.get("until");
    const until = untilEntry && this.#checks(untilEntry.value, `"loop.until" of ${label}`, owner);
    if (until && !until.status && until.paths.length === 0 && untilEntry?.value) {
      this.#problem(
        "missing-key",
        `${what} has no condition in "until".`,
        untilEntry.value,
        "For example: until: {json: [{path: $.json.state, equals: ready}]}",
      );
    }
    if (maxAttempts === undefined || sleepMs === undefined || !until) return undefined;
    return { maxAttempts, sleepMs, until };
  }

  #names(entry: Entry, what: string): string[] {
    const node = entry.value;
    if (isScalar(node) && typeof node.value === "string") return [node.value];
    if (isSeq(node)) {
      const names: string[] = [];
      for (const item of node.items) {
        const n = this.#deref(item);
        if (isScalar(n) && typeof n.value === "string") names.push(n.value);
        else {this.#problem(
            "wrong-type",
            `Expected ${what} to list step names, got ${describe(n)}.`,
            n,
          );}
      }
      return names;
    }
    this.#problem(
      "wrong-type",
      `Expected ${what} to be a list of step names, got ${describe(node)}.`,
      node ?? entry.keyNode,
      "For example: depends_on: [login]",
    );
    return [];
  }

  // ---- cross-step checks

  #order(steps: RawStep[]): RawStep[] | undefined {
    const names = steps.map((s) => s.name);
    for (const step of steps) {
      for (const dep of step.dependsOn) {
        if (dep === step.name) {
          this.#problem(
            "dependency-cycle",
            `Step "${step.name}" depends on itself.`,
            step.dependsOnNode,
            `Remove "${dep}" from its depends_on.`,
          );
        } else if (!names.includes(dep)) {
          const close = suggest(dep, names);
          this.#problem(
            "unknown-step",
            `Step "${step.name}" depends on unknown step "${dep}".`,
            step.dependsOnNode,
            close
              ? `Did you mean "${close}"?`
              : `Steps in this flow: ${[...new Set(names)].join(", ")}.`,
          );
        }
      }
    }
    const result = orderSteps(
      steps.map((s) => ({ name: s.name, dependsOn: s.dependsOn.filter((d) => d !== s.name) })),
    );
    if ("cycle" in result) {
      const first = steps.find((s) => s.name === result.cycle[0]);
      this.#problem(
        "dependency-cycle",
        `The depends_on of these steps form a cycle: ${result.cycle.join(" → ")}.`,
        first?.dependsOnNode,
        "Remove one of these dependencies so the steps can run in some order.",
      );
      return undefined;
    }
    return result.order.map((i) => steps[i]);
  }

  #checkReferences(vars: VarDef[], listed: RawStep[], ordered: RawStep[]): void {
    const params = this.options.params ?? new Map<string, string>();
    const env = this.options.env ?? (() => undefined);
    const checkEnv = this.options.checkEnv ?? true;
    const varNames = vars.map((v) => v.name);
    // With duplicate names (already reported) the first step of a name is the one referenced.
    const byName = new Map<string, RawStep>();
    for (const s of listed) if (!byName.has(s.name)) byName.set(s.name, s);
    const rank = (s: RawStep) => ordered.indexOf(s);
    // One unset variable is one problem, reported at its first use: listing every use
    // of BASE_URL separately would bury the other problems of the file.
    const firstUse = new Map<string, { problem: Problem; lines: number[] }>();
    for (const use of this.#uses) {
      const available = use.owner.kind === "var" ? varNames.slice(0, use.owner.index) : varNames;
      const known = (name: string) => available.includes(name) || params.has(name);
      const user = use.owner.kind === "step" ? listed[use.owner.index] : undefined;
      for (const part of use.template.parts) {
        if (typeof part === "string") continue;
        const report = (code: string, message: string, hint?: string, once?: string) => {
          const seen = once === undefined ? undefined : firstUse.get(once);
          if (seen) return void seen.lines.push(this.#at(use.node, part.offset).line);
          this.#problem(code, message, use.node, hint, part.offset, part.text.length);
          if (once !== undefined) firstUse.set(once, { problem: this.problems.at(-1)!, lines: [] });
        };
        this.#checkRef(part, {
          known,
          varNames,
          available,
          env,
          checkEnv,
          user,
          rank,
          byName,
          report,
        });
      }
    }
    for (const { problem, lines } of firstUse.values()) {
      const others = [...new Set(lines)].filter((line) => line !== problem.line);
      if (others.length > 0) {
        problem.message = problem.message.replace(
          /\.$/,
          `; also used on line${others.length === 1 ? "" : "s"} ${others.slice(0, 10).join(", ")}${
            others.length > 10 ? ` and ${others.length - 10} more` : ""
          }.`,
        );
      }
    }
  }

  #checkRef(
    expr: Expr,
    c: {
      known: (name: string) => boolean;
      varNames: string[];
      available: string[];
      env: (name: string) => string | undefined;
      checkEnv: boolean;
      user?: RawStep;
      rank: (step: RawStep) => number;
      byName: Map<string, RawStep>;
      report: (code: string, message: string, hint?: string, once?: string) => void;
    },
  ): void {
    const ref = expr.ref;
    switch (ref.kind) {
      case "env":
        if (c.checkEnv && expr.fallback === undefined && c.env(ref.name) === undefined) {
          c.report(
            "unset-env",
            `Environment variable "${ref.name}" is not set (used in "${expr.text}").`,
            `Set it before running (export ${ref.name}=…), or give a fallback: \${ENV.${ref.name}:-value}.`,
            `env:${ref.name}`,
          );
        }
        return;
      case "name": {
        if (c.known(ref.name) || expr.fallback !== undefined || c.env(ref.name) !== undefined) {
          return;
        }
        if (c.varNames.includes(ref.name)) {
          c.report(
            "unknown-var",
            `Var "${ref.name}" is used before it is defined (in "${expr.text}").`,
            "Vars are evaluated in order; move it above the var that uses it.",
          );
        } else if (c.checkEnv) {
          const close = suggest(ref.name, c.available);
          c.report(
            "unknown-name",
            `"${ref.name}" is not a flow var, run parameter or environment variable (in "${expr.text}").`,
            close
              ? `Did you mean "\${${close}}"?`
              : `Define it under vars, pass --var ${ref.name}=…, set the environment variable, or give a fallback: \${${ref.name}:-value}.`,
            `name:${ref.name}`,
          );
        }
        return;
      }
      case "var": {
        if (c.known(ref.name)) return;
        if (c.varNames.includes(ref.name)) {
          c.report(
            "unknown-var",
            `Var "${ref.name}" is used before it is defined (in "${expr.text}").`,
            "Vars are evaluated in order; move it above the var that uses it.",
          );
          return;
        }
        const close = suggest(ref.name, c.available);
        c.report(
          "unknown-var",
          `Unknown var "${ref.name}" in "${expr.text}".`,
          close
            ? `Did you mean "\${vars.${close}}"?`
            : `Define it under "vars:" or pass --var ${ref.name}=….`,
        );
        return;
      }
      case "step": {
        if (!c.user) {
          c.report(
            "step-in-var",
            `Vars cannot use step values ("${expr.text}"): vars are evaluated before any step runs.`,
            "Use the expression directly in the step that needs it.",
          );
          return;
        }
        const target = c.byName.get(ref.step);
        if (!target) {
          const close = suggest(ref.step, c.byName.keys());
          c.report(
            "unknown-step",
            `Unknown step "${ref.step}" in "${expr.text}".`,
            close
              ? `Did you mean "${close}"?`
              : `Steps in this flow: ${[...c.byName.keys()].join(", ")}.`,
          );
          return;
        }
        if (target === c.user) {
          c.report(
            "later-step",
            `Step "${ref.step}" uses its own captured value in "${expr.text}".`,
            "Values are captured after the response arrives; use them in a later step.",
          );
          return;
        }
        if (c.rank(target) > c.rank(c.user)) {
          c.report(
            "later-step",
            `Step "${c.user.name}" uses "${expr.text}", but step "${ref.step}" runs after it.`,
            `List "${ref.step}" first, or add depends_on: [${ref.step}] to step "${c.user.name}".`,
          );
          return;
        }
        if (!target.captures.some((cap) => cap.name === ref.key)) {
          const names = target.captures.map((cap) => cap.name);
          const close = suggest(ref.key, names);
          c.report(
            "unknown-capture",
            `Step "${ref.step}" captures no value "${ref.key}" (in "${expr.text}").`,
            close
              ? `Did you mean "${close}"?`
              : names.length
              ? `It captures: ${names.join(", ")}.`
              : `Add it to step "${ref.step}", e.g. capture: {${ref.key}: $.json.${ref.key}}.`,
          );
        }
        return;
      }
      default:
        return;
    }
  }
}

const REQUIRED_HINTS: Record<string, string> = {
  name: 'Add "name: …" (step names must be unique in the flow).',
  steps: 'Add a "steps:" list with at least one step.',
  request: 'Add "request: {method: GET, url: …}".',
  url: 'Add "url: …", e.g. url: ${ENV.BASE_URL}/health.',
  path: 'Add "path: …", e.g. path: $.json.id.',
  max_attempts: 'Polling must be bounded: add "max_attempts: 10".',
  until:
    "Add the condition to wait for, e.g. until: {json: [{path: $.json.state, equals: ready}]}.",
};

const YAML_HINTS: Record<string, string> = {
  DUPLICATE_KEY: "Each key may appear once in a map; remove or rename one.",
  TAB_AS_INDENT: "Indent with spaces, not tabs.",
  MULTIPLE_DOCS: "Put one flow in each file; remove the --- separator.",
  MISSING_CHAR: "Close the quote or bracket that starts before this position.",
  BAD_INDENT: "Align the lines of this block with the same indentation.",
  BAD_DQ_ESCAPE: "Inside double quotes, write a backslash as \\\\, or use single quotes.",
};

/** An empty section (`vars:` with nothing after it): the yaml package gives a null scalar, not null. */
function isEmpty(node: Node | null): boolean {
  return node === null || (isScalar(node) && node.value === null);
}

function mergeConst(value: ValueTemplate): ValueTemplate {
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

/** Composes the parser's syntax tree into one document, as `parseDocument` does. */
function compose(tokens: CST.Token[], length: number): Document {
  const composer = new Composer({
    uniqueKeys: true,
    merge: true,
    // Integers as BigInt first, so one past 2^53 is caught, not silently rounded.
    intAsBigInt: true,
  });
  let doc: Document | undefined;
  for (const next of composer.compose(tokens, true, length)) {
    if (!doc) doc = next;
    else {
      doc.errors.push(
        new YAMLParseError(
          [next.range[0], next.range[1]],
          "MULTIPLE_DOCS",
          "Source contains multiple documents",
        ),
      );
      break;
    }
  }
  return doc!;
}

function mebibytes(n: number): string {
  const mib = n / 1024 / 1024;
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}

/** Longest quoted value kept whole in a message; longer ones keep their start and end. */
const MAX_QUOTED = 120;

/**
 * A message with its long quoted values shortened, and at most a few
 * thousand characters: a megabyte key or name is quoted, not copied.
 */
function bounded(text: string): string {
  const short = text.replace(
    new RegExp(`"([^"\n]{${MAX_QUOTED + 1},})"`, "g"),
    (_, inner: string) =>
      `"${inner.slice(0, MAX_QUOTED - 30)}…${inner.slice(-20)}" (${inner.length} characters)`,
  );
  return short.length > 2000 ? `${short.slice(0, 2000)}…` : short;
}

function describe(node: unknown): string {
  if (node === null || node === undefined) return "nothing";
  if (isMap(node)) return "a map";
  if (isSeq(node)) return "a list";
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

/**
 * Loads and checks one flow file. Never throws for problems in the file: they
 * are returned, each with its position and a hint.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load.ts";
 * const ok = loadFlow("name: health\nsteps:\n  - name: ping\n    request: {url: https://example.test/health}\n", "health.yaml");
 * if (!ok.flow || ok.flow.steps[0].request.method !== "GET") throw new Error();
 * const bad = loadFlow("name: x\nsteps:\n  - name: a\n    request: {url: https://e.test}\n    captures: {}\n", "x.yaml");
 * if (bad.problems[0].hint !== 'Did you mean "capture"?') throw new Error(bad.problems[0].hint);
 * ```
 */
export function loadFlow(text: string, file: string, options: LoadOptions = {}): LoadResult {
  const loader = new Loader(file, options);
  const flow = loader.load(text);
  const problems = capProblems(
    loader.problems.sort((a, b) => a.line - b.line || a.column - b.column),
  );
  return problems.length > 0
    ? { problems, name: loader.name }
    : { flow, problems, name: flow?.name };
}

/**
 * The problem of a flow file larger than {@linkcode MAX_FILE_BYTES}, found
 * before it is parsed (for a text, its length in UTF-16 code units counts).
 *
 * @example
 * ```ts
 * import { fileTooLarge } from "./load.ts";
 * const problem = fileTooLarge("big.yaml", 50 * 1024 * 1024);
 * if (problem.code !== "file-too-large" || !problem.message.includes("50 MiB")) throw new Error();
 * ```
 */
export function fileTooLarge(file: string, size: number): Problem {
  return {
    code: "file-too-large",
    message: `The flow file is ${mebibytes(size)} (${size} bytes), more than the ${
      mebibytes(MAX_FILE_BYTES)
    } a flow file may be.`,
    file,
    line: 1,
    column: 1,
    hint:
      "Split it into several flow files: a folder of flows runs as one set. Shared values can go in vars or anchors.",
  };
}

/**
 * The first {@linkcode MAX_PROBLEMS_PER_FILE} problems of a file and one
 * `too-many-problems` problem counting the rest (in its `omitted`), at the
 * first one left out.
 */
function capProblems(problems: Problem[]): Problem[] {
  if (problems.length <= MAX_PROBLEMS_PER_FILE) return problems;
  const first = problems[MAX_PROBLEMS_PER_FILE];
  const omitted = problems.length - MAX_PROBLEMS_PER_FILE;
  return [...problems.slice(0, MAX_PROBLEMS_PER_FILE), {
    code: "too-many-problems",
    message: `${omitted} more problem${omitted === 1 ? "" : "s"} in this file ${
      omitted === 1 ? "is" : "are"
    } not listed (the first ${MAX_PROBLEMS_PER_FILE} are).`,
    file: first.file,
    line: first.line,
    column: first.column,
    hint:
      "Fix the problems listed first: one mistake repeated, or one early mistake, often causes the rest.",
    omitted,
  }];
}
