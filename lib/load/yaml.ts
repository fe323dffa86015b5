/**
 * Reading a flow file's YAML: size and depth limits before parsing, the
 * fast path for plain files (`fast_yaml.ts`), syntax errors as problems
 * (`yaml_syntax.ts`), alias limits, and numbers JSON can carry.
 *
 * @module
 */
import type { CST, Document } from "yaml";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import { yamlEngine } from "./yaml_engine.ts";
import type { Problem } from "../model/errors.ts";
import { MAX_ALIAS_EXPANSION, MAX_DEPTH, MAX_FILE_BYTES } from "../model/limits.ts";
import { checkAliases, parseBounded, tooDeepAt } from "./yaml_limits.ts";
import type { Loading } from "./context.ts";
import { fastParse } from "./fast_yaml.ts";
import { reportEmptyValues, reportSyntaxErrors } from "./yaml_syntax.ts";
import { thousands } from "../_util/thousands.ts";

/**
 * Composes the parser's syntax tree into one document, as `parseDocument`
 * does; a second document is a `MULTIPLE_DOCS` error of the first.
 *
 * @example
 * ```ts
 * import { compose } from "./yaml.ts";
 * import { yamlEngine } from "./yaml_engine.ts";
 * const { Parser } = await yamlEngine.load();
 * const text = "a: 1\n---\nb: 2\n";
 * const doc = compose([...new Parser().parse(text)], text.length);
 * if (doc.errors[0]?.code !== "MULTIPLE_DOCS") throw new Error();
 * ```
 */
export function compose(tokens: CST.Token[], length: number): Document {
  const { Composer, YAMLParseError } = yamlEngine.get();
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

/**
 * A size in MiB for messages: `10 MiB`, `12.5 MiB`.
 *
 * @example
 * ```ts
 * import { mebibytes } from "./yaml.ts";
 * if (mebibytes(10 * 1024 * 1024) !== "10 MiB" || mebibytes(12.5 * 1024 * 1024) !== "12.5 MiB") throw new Error();
 * ```
 */
export function mebibytes(n: number): string {
  const mib = n / 1024 / 1024;
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}

/**
 * The problem of a flow file larger than {@linkcode MAX_FILE_BYTES}, found
 * before it is parsed (for a text, its length in UTF-16 code units counts).
 *
 * @example
 * ```ts
 * import { fileTooLarge } from "./yaml.ts";
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
 * Turns the parser's BigInt integers back into numbers, and reports a
 * number JSON cannot carry as written: an integer past 2^53 would silently
 * become another number, and an infinite or NaN one (`.inf`, `1e400`)
 * would be sent as null.
 *
 * @example
 * ```ts
 * import { exactNumbers } from "./yaml.ts";
 * import { Loading } from "./context.ts";
 * import { fastParse } from "./fast_yaml.ts";
 * const ctx = new Loading("f.yaml", {});
 * ctx.doc = fastParse("a: 12\nb: 9007199254740993\n")!.doc;
 * if (exactNumbers(ctx) || ctx.problems[0].code !== "out-of-range") throw new Error();
 * ```
 */
export function exactNumbers(ctx: Loading): boolean {
  let exact = true;
  const stack: unknown[] = [ctx.doc.contents];
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
        ctx.problem(
          "out-of-range",
          `The integer ${node.value} is too large to keep exactly (past 2^53); it would be sent as ${n}.`,
          node,
          `Quote it to send it as text: "${node.value}".`,
        );
      } else if (typeof node.value === "number" && !Number.isFinite(node.value)) {
        exact = false;
        const written = node.source ?? String(node.value);
        ctx.problem(
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

/**
 * Parses the file's YAML into `ctx.doc`, adding a problem for every
 * reason it cannot be read (size, depth, syntax, aliases, numbers); `true`
 * when the document can be read as a flow.
 *
 * @example
 * ```ts
 * import { readYaml } from "./yaml.ts";
 * import { Loading } from "./context.ts";
 * import { yamlEngine } from "./yaml_engine.ts";
 * await yamlEngine.load(); // anchors need the full parser (withEngines loads it on demand)
 * const ok = new Loading("a.yaml", {});
 * if (!readYaml(ok, "name: a\nn: 1\n") || ok.doc.contents === null) throw new Error();
 * const bad = new Loading("b.yaml", {});
 * if (readYaml(bad, "a: &x [*x]\n") || bad.problems[0].code !== "yaml-too-large") throw new Error();
 * ```
 */
export function readYaml(ctx: Loading, text: string): boolean {
  ctx.text = text;
  // Checked before parsing: a 50 MB flow exhausted memory after 100 s.
  if (text.length > MAX_FILE_BYTES) {
    ctx.problems.push(fileTooLarge(ctx.file, text.length));
    return false;
  }
  // Most flow files keep to plain YAML that a fast path reads in a fraction of the time;
  // it builds the same nodes and ranges, and leaves anything else to the full parser.
  const fast = fastParse(text);
  if (fast) {
    for (const start of fast.lineStarts) ctx.lines.addNewLine(start);
    ctx.doc = fast.doc;
    reportEmptyValues(ctx, text);
    return ctx.problems.length === 0 && exactNumbers(ctx);
  }
  if (!parseFull(ctx, text)) return false;
  reportSyntaxErrors(ctx, text);
  if (ctx.problems.length === 0) reportEmptyValues(ctx, text);
  if (ctx.problems.length > 0) return false;
  return aliasesBounded(ctx) && exactNumbers(ctx);
}

/**
 * The full parser's document in `ctx.doc`, or `false` with a problem when
 * the YAML nests too deeply. The parser builds its syntax tree without
 * recursion; the composer that turns it into nodes recurses per level, so
 * the depth is measured on the tree before composing.
 */
function parseFull(ctx: Loading, text: string): boolean {
  const parsed = parseBounded(text, ctx.lines.addNewLine, MAX_DEPTH);
  const tokens: CST.Token[] = "tokens" in parsed ? parsed.tokens : [];
  const deep = "tooDeepAt" in parsed ? parsed.tooDeepAt : tooDeepAt(tokens, MAX_DEPTH);
  if (deep !== undefined) {
    ctx.problemAt(
      "yaml-too-deep",
      `The YAML nests more than ${MAX_DEPTH} levels deep here.`,
      deep,
      "A flow never needs that much nesting: flatten the value.",
    );
    return false;
  }
  ctx.doc = compose(tokens, text.length);
  return true;
}

/**
 * Whether the document's aliases stay within bounds (no cycle, not too many
 * nodes, not too deep once expanded); else a problem at the alias. Sets
 * `ctx.targets` either way.
 */
function aliasesBounded(ctx: Loading): boolean {
  const aliases = checkAliases(ctx.doc, MAX_ALIAS_EXPANSION, MAX_DEPTH);
  ctx.targets = aliases.targets;
  if (!aliases.problem) return true;
  const { kind, alias } = aliases.problem;
  const name = `"*${(alias as { source?: string }).source}"`;
  if (kind === "too-deep") {
    ctx.problem(
      "yaml-too-deep",
      `With the alias ${name} expanded, the YAML nests more than ${MAX_DEPTH} levels deep here.`,
      alias,
      "A flow never needs that much nesting: use fewer aliases of nested values.",
    );
    return false;
  }
  ctx.problem(
    "yaml-too-large",
    kind === "cycle"
      ? `The alias ${name} refers to the value it is part of, so it never ends.`
      : `With the alias ${name}, aliases add more than ${
        thousands(MAX_ALIAS_EXPANSION)
      } YAML nodes to the flow (each use copies its anchor's whole value).`,
    alias,
    kind === "cycle"
      ? "An anchor's value cannot contain an alias of itself; repeat the value instead."
      : "Aliases of values that themselves use aliases multiply; repeat the values instead.",
  );
  return false;
}
