/**
 * The size report `deno task check` prints, so growth is seen when it
 * happens: files over {@linkcode FILE_LINES} lines, functions over
 * {@linkcode FUNCTION_LINES} lines and functions whose cyclomatic complexity
 * is over {@linkcode COMPLEXITY}, measured on the TypeScript syntax tree (the
 * `typescript` package, a development tool only: nothing a user downloads to
 * run flows imports it).
 *
 * Complexity counts one for the function and one for each branch point:
 * `if`, `?:`, each `case`, each loop, each `catch`, and each `&&`, `||` and
 * `??` (their assignment forms too), as ESLint's `complexity` rule does.
 * A nested function is measured on its own, not in its parent.
 *
 * Run: `deno run -A scripts/size_report.ts [--strict] [paths…]` (default:
 * `lib/`, `cli/`, `cli.ts`, `mod.ts`). With `--strict` it exits 1 when a
 * function is over a limit and not listed in {@linkcode EXCEPTIONS}.
 *
 * @module
 */
import ts from "typescript";

/** Files longer than this many lines are listed. */
export const FILE_LINES = 400;
/** Functions longer than this many lines are over the limit. */
export const FUNCTION_LINES = 60;
/** Functions whose cyclomatic complexity is over this are over the limit. */
export const COMPLEXITY = 15;

/**
 * Functions allowed over a limit, as `path#name`, each with the reason (the
 * folder's module doc says the same). Generated tables and data are measured
 * too; this list is for them.
 *
 * @example
 * ```ts
 * import { EXCEPTIONS } from "./size_report.ts";
 * for (const [at, why] of Object.entries(EXCEPTIONS)) {
 *   if (!at.includes("#") || why === "") throw new Error(at);
 * }
 * ```
 */
export const EXCEPTIONS: Record<string, string> = {};

/** One function as measured. */
export interface FunctionSize {
  /** Path relative to the project root. */
  file: string;
  /** The function's name (`Class.method`, `<arrow>` at line N when it has none). */
  name: string;
  /** 1-based line of its start. */
  line: number;
  /** Lines from its first to its last, both included. */
  lines: number;
  /** Cyclomatic complexity. */
  complexity: number;
}

/**
 * Every function of one source text, with its length and complexity.
 *
 * @example
 * ```ts
 * import { measureSource } from "./size_report.ts";
 * const [f] = measureSource("a.ts", "function f(a: number) {\n  if (a > 1 && a < 3) return 1;\n  return 2;\n}\n");
 * if (f.name !== "f" || f.lines !== 4 || f.complexity !== 3) throw new Error(JSON.stringify(f));
 * ```
 */
export function measureSource(file: string, text: string): FunctionSize[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: FunctionSize[] = [];
  const visit = (node: ts.Node, owner: string) => {
    if (isFunction(node)) {
      const name = functionName(node, owner, source);
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({
        file,
        name,
        line: start + 1,
        lines: end - start + 1,
        complexity: complexity(node),
      });
      ts.forEachChild(node, (child) => visit(child, name));
      return;
    }
    const next = ts.isClassDeclaration(node) || ts.isClassExpression(node)
      ? node.name?.text ?? "<class>"
      : owner;
    ts.forEachChild(node, (child) => visit(child, next));
  };
  visit(source, "");
  return out;
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node);
}

function functionName(node: ts.FunctionLikeDeclaration, owner: string, source: ts.SourceFile) {
  let own = node.name && ts.isIdentifier(node.name) ? node.name.text : undefined;
  if (ts.isConstructorDeclaration(node)) own = "constructor";
  const parent = node.parent;
  if (!own && parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) {
    own = parent.name.text;
  }
  if (!own && parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) {
    own = parent.name.text;
  }
  if (!own) {
    own = `<arrow> at line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  }
  return owner && ts.isClassLike(node.parent) ? `${owner}.${own}` : own;
}

const BRANCHES = new Set([
  ts.SyntaxKind.IfStatement,
  ts.SyntaxKind.ConditionalExpression,
  ts.SyntaxKind.CaseClause,
  ts.SyntaxKind.ForStatement,
  ts.SyntaxKind.ForInStatement,
  ts.SyntaxKind.ForOfStatement,
  ts.SyntaxKind.WhileStatement,
  ts.SyntaxKind.DoStatement,
  ts.SyntaxKind.CatchClause,
]);

const LOGICAL = new Set([
  ts.SyntaxKind.AmpersandAmpersandToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.QuestionQuestionToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
]);

function complexity(fn: ts.Node): number {
  let count = 1;
  const walk = (node: ts.Node) => {
    if (node !== fn && isFunction(node)) return;
    if (BRANCHES.has(node.kind)) count++;
    if (ts.isBinaryExpression(node) && LOGICAL.has(node.operatorToken.kind)) count++;
    ts.forEachChild(node, walk);
  };
  walk(fn);
  return count;
}

/** The TypeScript files under the given paths, sorted, relative to the root. */
async function sources(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (path: string) => {
    const info = await Deno.stat(path);
    if (info.isFile) {
      if (path.endsWith(".ts")) out.push(path);
      return;
    }
    for await (const entry of Deno.readDir(path)) {
      await walk(`${path.replace(/\/$/, "")}/${entry.name}`);
    }
  };
  for (const p of paths) await walk(p);
  return out.sort();
}

/** What the report found: long files, and functions over a limit. */
export interface SizeReport {
  /** Files over {@linkcode FILE_LINES} lines, longest first. */
  files: { file: string; lines: number }[];
  /** Functions over a limit, worst first. */
  over: FunctionSize[];
  /** The longest function measured. */
  longest?: FunctionSize;
  /** How many functions were measured. */
  measured: number;
}

/**
 * Measures the files under the given paths.
 *
 * @example
 * ```ts
 * import { sizeReport } from "./size_report.ts";
 * const report = await sizeReport(["scripts/size_report.ts"]);
 * if (report.measured === 0 || !report.longest) throw new Error("nothing measured");
 * ```
 */
export async function sizeReport(paths: string[]): Promise<SizeReport> {
  const files: { file: string; lines: number }[] = [];
  const all: FunctionSize[] = [];
  for (const file of await sources(paths)) {
    const text = await Deno.readTextFile(file);
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (lines > FILE_LINES) files.push({ file, lines });
    all.push(...measureSource(file, text));
  }
  const over = all.filter((f) => f.lines > FUNCTION_LINES || f.complexity > COMPLEXITY)
    .sort((a, b) => b.lines + 4 * b.complexity - (a.lines + 4 * a.complexity));
  const longest = all.reduce<FunctionSize | undefined>(
    (best, f) => (!best || f.lines > best.lines ? f : best),
    undefined,
  );
  return { files: files.sort((a, b) => b.lines - a.lines), over, longest, measured: all.length };
}

if (import.meta.main) {
  const strict = Deno.args.includes("--strict");
  const given = Deno.args.filter((a) => a !== "--strict");
  const report = await sizeReport(given.length ? given : ["lib", "cli", "cli.ts", "mod.ts"]);
  const { longest } = report;
  console.log(
    `Size report: ${report.measured} functions; the longest is ${longest?.name} ` +
      `(${longest?.file}:${longest?.line}, ${longest?.lines} lines).`,
  );
  console.log(`Files over ${FILE_LINES} lines: ${report.files.length}`);
  for (const f of report.files) console.log(`  ${f.lines} ${f.file}`);
  const unexcused = report.over.filter((f) => !(`${f.file}#${f.name}` in EXCEPTIONS));
  console.log(
    `Functions over ${FUNCTION_LINES} lines or complexity ${COMPLEXITY}: ${report.over.length}` +
      ` (${report.over.length - unexcused.length} listed as exceptions)`,
  );
  for (const f of report.over) {
    const mark = `${f.file}#${f.name}` in EXCEPTIONS ? " (exception)" : "";
    console.log(
      `  ${f.file}:${f.line} ${f.name}: ${f.lines} lines, complexity ${f.complexity}${mark}`,
    );
  }
  if (strict && unexcused.length > 0) Deno.exit(1);
}
