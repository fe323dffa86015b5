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
import { isConstant, parseTemplate, type Template, type ValueTemplate } from "../expr/template.ts";
import { compilePath, compileTemplatePath, type PathRoot } from "../expr/path.ts";
import { suggest } from "../_util/suggest.ts";
import { getOwn } from "../_util/own_property.ts";
import type { LoadOptions } from "./load_options.ts";
import { foreignExpression } from "./spelling.ts";
import { KEY_HINTS, REQUIRED_HINTS } from "./key_hints.ts";
import { quoteHint } from "./quote_hint.ts";
import { bounded, describe } from "./describe.ts";
import type { Entry, TemplateUse } from "./entry.ts";
import { readDuration, readInteger } from "./scalars.ts";
import { excerptOf } from "./excerpt.ts";
import { conceal, opaqueProblem } from "./unquoted.ts";
import { maskCredentials, writtenCredentials } from "./written_credentials.ts";
import { listAsMapHint } from "./list_as_map.ts";
import { AnchorProblems } from "./anchor_problems.ts";
import { type AliasUse, latestAliasUse } from "./alias_use.ts";
import { readValue } from "./value.ts";
import { unknownAlias } from "./yaml_slips.ts";
import { emptyBlockHint, underBlockHint } from "./yaml_block_hints.ts";

// The loader's words and shapes live in their own modules, which the readers import; these
// re-exports keep the importers that name them from here working.
export type { IncludeResolution, LoadOptions } from "./load_options.ts";
export { METHOD, RESERVED } from "./spelling.ts";
export { describe } from "./describe.ts";
export type { Entry, TemplateUse } from "./entry.ts";

/**
 * One flow file being loaded: its text, parse, problems and the templates to check.
 *
 * @example
 * ```ts
 * import { Loading } from "./context.ts";
 * const ctx = new Loading("f.yaml", {});
 * ctx.problemAt("yaml-syntax", "A tab indents this line.", 0, "Indent with spaces.");
 * if (ctx.problems[0].line !== 1 || ctx.problems[0].file !== "f.yaml") throw new Error();
 * ```
 */
export class Loading {
  readonly problems: Problem[] = [];

  readonly lines = new LineCounter();

  readonly uses: TemplateUse[] = [];

  doc!: Document;

  name?: string;

  text = "";

  /** Each alias node's anchor, resolved once in document order. */
  targets = new Map<Node, Node>();
  /** Mistakes inside anchors: each reported once, at the first alias that reads it. */
  readonly anchors = new AnchorProblems();
  /** Every alias read so far, with its anchor's value. */
  readonly aliasUses: { alias: Node; target: Node }[] = [];
  /**
   * Set while problems are reported for something read earlier (a template's
   * references): the alias it was read through then, or `null` for none.
   */
  via: { alias: Node; target: Node } | null | undefined;
  /**
   * The nodes of other files read as part of this one (a check file's
   * templates, checked against this flow's steps): a problem at one is
   * placed in its own file, by the loading that read it.
   */
  readonly nodeFiles = new Map<Node, Loading>();

  /** Set once a foreign file (`LoadOptions.foreign`) is not YAML of its kind: never quoted. */
  opaque = false;
  // The credentials of `text` (set after construction), read once the first problem quotes it.
  #written?: { text: string; found: string[] };

  constructor(readonly file: string, readonly options: LoadOptions) {}

  /** Records a foreign file's one unquoted problem instead, when it may not be quoted. */
  #unquoted(code: string, line: number, column: number): boolean {
    if (this.options.foreign === undefined) return false;
    if (code === "yaml-syntax") this.opaque = true;
    if (!this.opaque) return false;
    if (!this.problems.some((p) => p.file === this.file)) {
      this.problems.push(opaqueProblem(this.options.foreign, this.file, code, line, column));
    }
    return true;
  }

  /** The source line a problem is on (see excerpt.ts). */
  excerpt(line: number, column: number): Pick<Problem, "excerpt" | "excerptStart"> {
    return excerptOf(this.text, this.lines.lineStarts, line, column);
  }

  /** The position of a node, or of `offset` characters into a scalar's text. */
  at(node: Node | null | undefined, offset?: number): { line: number; column: number } {
    const other = node ? this.nodeFiles.get(node) : undefined;
    if (other) return other.at(node, offset);
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
    const other = node ? this.nodeFiles.get(node) : undefined;
    if (other) return this.#problemIn(other, code, message, node, hint, offset, length);
    // A mistake inside an anchor is reported where the alias uses it, naming the anchor, once.
    const use = this.via !== undefined ? this.via ?? undefined : this.aliasUseOf(node);
    if (use) {
      const named = this.anchors.message(code, message, use.alias, this.at(node, offset));
      if (named === undefined) return;
      message = named;
      node = use.alias;
      offset = undefined;
      length = undefined;
    }
    const { line, column } = this.at(node, offset);
    const span = offset === undefined && node?.range
      ? Math.max(1, node.range[1] - node.range[0])
      : length;
    this.#push(code, message, line, column, span, hint);
  }

  /** Records a problem of this file, its long values shortened, with its excerpt. */
  #push(
    code: string,
    message: string,
    line: number,
    column: number,
    length?: number,
    hint?: string,
  ) {
    if (this.#unquoted(code, line, column)) return;
    const problem: Problem = { code, message, file: this.file, line, column, length, hint };
    Object.assign(problem, this.excerpt(line, column));
    // A YAML slip's message quotes lines of a file that could not be read: a credential the file
    // writes is masked, before the message is cut (a cut one is not known).
    if (code === "yaml-syntax") maskCredentials(problem, this.#credentials());
    problem.message = bounded(problem.message);
    if (problem.hint !== undefined) problem.hint = bounded(problem.hint);
    this.problems.push(problem);
  }

  /** The credentials the file's text writes in secret places (`written_credentials.ts`). */
  #credentials(): readonly string[] {
    if (this.#written?.text !== this.text) {
      this.#written = { text: this.text, found: writtenCredentials(this.text) };
    }
    return this.#written.found;
  }

  /** Hides the underlined value of the problem just recorded (a refused credential). */
  concealLast(): void {
    const last = this.problems.at(-1);
    if (last) conceal(last);
  }

  /** A problem at a node of another file this one reads, positioned in that file. */
  #problemIn(other: Loading, ...args: Parameters<Loading["problem"]>): void {
    const before = other.problems.length;
    other.via = this.via;
    other.problem(...args);
    other.via = undefined;
    this.problems.push(...other.problems.splice(before));
  }

  /** Records a problem at a character offset of the text (before or instead of composing it). */
  problemAt(code: string, message: string, offset: number, hint: string): void {
    // Before parsing no line is counted yet: the only such problem is at the start.
    const { line, col } = this.lines.lineStarts.length > 0
      ? this.lines.linePos(offset)
      : { line: 1, col: 1 };
    this.#push(code, message, line, col, 1, hint);
  }

  /** The fix for a value that should be a map: a list of one-key maps, children left unindented. */
  #notAMapHint(node: Node | null): string {
    return listAsMapHint(this.text, this.deref(isSeq(node) ? node.items[0] : null), node) ??
      emptyBlockHint(this.text, node, (o) => this.lines.linePos(o).line) ??
      `Write it as "key: value" lines indented under its parent.`;
  }

  // ---- YAML shapes

  deref(node: unknown): Node | null {
    if (isAlias(node)) {
      const target = this.targets.get(node);
      if (!target) {
        // `scope: *.read` was meant as text: the problem says so, with the quoted line.
        const { message, hint } = unknownAlias(this.text, node.range?.[0] ?? 0, node.source);
        this.problem("yaml-syntax", message, node, hint);
        return null;
      }
      this.aliasUses.push({ alias: node, target: target as Node });
      return target as Node;
    }
    return (node ?? null) as Node | null;
  }

  /** The alias through which `node` (part of an anchor's value) is read now (`alias_use.ts`). */
  aliasUseOf(node: Node | null | undefined): AliasUse | undefined {
    return latestAliasUse(this.aliasUses, node);
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
        this.#notAMapHint(node),
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
    const known = underBlockHint(getOwn(KEY_HINTS[hintSet], entry.key), this, entry.keyNode);
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
      quoteHint(this, node, entry.key) ??
        (what === '"name"' ? "Name the flow, e.g. name: checkout." : `Write ${entry.key}: "text".`),
    );
    return undefined;
  }

  /** An integer from `min` to `max` (see scalars.ts). */
  integer(entry: Entry, what: string, min: number, max?: number): number | undefined {
    return readInteger(this, entry, what, min, max);
  }

  /**
   * A duration: milliseconds as an integer, or a number with a unit
   * (`500ms`, `5s`, `2m`), from `min` to `max` milliseconds.
   */
  duration(entry: Entry, what: string, min: number, max: number): number | undefined {
    return readDuration(this, entry, what, min, max);
  }

  /** Compiles a YAML value, parsing every string into a template and noting where each is used. */
  value(node: Node | null, owner: TemplateUse["owner"]): ValueTemplate | undefined {
    return readValue(this, node, owner);
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
    const foreign = template && foreignExpression(text);
    if (foreign) {
      const { message, hint, index, length } = foreign;
      this.problem("foreign-expression", message, node, hint, index, length);
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
