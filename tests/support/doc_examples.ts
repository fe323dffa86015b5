/**
 * The JSDoc `@example` blocks of the project's modules, run in one process.
 *
 * `deno test --doc` runs each example as a module of its own in a fresh
 * isolate: for about 1,100 examples that was 218 s of CPU (3.6 of the
 * suite's 14 CPU-minutes), almost all of it starting isolates and loading
 * the same modules again. Here each example becomes an async function in one
 * generated module: its static imports become dynamic ones (relative paths
 * resolved against the file the example is in, `import type` dropped), the
 * rest of its code is kept as written. Type-checking the examples is
 * `deno check --doc`'s part (scripts/test.ts runs it).
 */
import ts from "typescript";

/** One runnable example: where it is and its code. */
export interface DocExample {
  /** The module it documents, from the project root. */
  file: string;
  /** The line of its opening fence. */
  line: number;
  code: string;
}

/** Languages Deno runs in a JSDoc fence; an `ignore` attribute skips the block. */
const RUNNABLE = new Set(["ts", "typescript", "js", "javascript"]);

/**
 * The runnable examples of a file, in order: in a module's JSDoc comments,
 * or anywhere in a Markdown file.
 *
 * @example
 * ```ts ignore
 * examplesOf("a.md", "Text\n```ts\nf();\n```\n") // [{ file: "a.md", line: 2, code: "f();\n" }]
 * ```
 */
export function examplesOf(file: string, text: string): DocExample[] {
  if (file.endsWith(".md")) return fenced(file, text.split("\n"), 1);
  const examples: DocExample[] = [];
  for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const first = text.slice(0, comment.index).split("\n").length;
    const lines = comment[0].split("\n").map((l) => l.replace(/^\s*\*? ?/, ""));
    examples.push(...fenced(file, lines, first));
  }
  return examples;
}

/** The runnable fenced blocks among `lines`, the first of which is line `first` of the file. */
function fenced(file: string, lines: readonly string[], first: number): DocExample[] {
  const examples: DocExample[] = [];
  // The block being read: `code` is undefined for one that is not run (sh, `ts ignore`).
  let open: { line: number; code?: string[] } | undefined;
  for (const [i, line] of lines.entries()) {
    const fence = /^```(\S*)(.*)$/.exec(line.trim());
    if (!fence) {
      open?.code?.push(line);
    } else if (open) {
      if (open.code) examples.push({ file, line: open.line, code: `${open.code.join("\n")}\n` });
      open = undefined;
    } else {
      const runs = RUNNABLE.has(fence[1]) && !/\bignore\b/.test(fence[2]);
      open = { line: first + i, code: runs ? [] : undefined };
    }
  }
  return examples;
}

/** `{ a, b: c, default: d }` for an import clause of named imports. */
function bindings(clause: ts.ImportClause, named?: ts.NamedImports): string {
  const names: string[] = [];
  if (clause.name) names.push(`default: ${clause.name.text}`);
  for (const element of named?.elements ?? []) {
    if (element.isTypeOnly) continue;
    const imported = element.propertyName?.text ?? element.name.text;
    names.push(imported === element.name.text ? imported : `${imported}: ${element.name.text}`);
  }
  return `{ ${names.join(", ")} }`;
}

/** One import declaration as an `await import(…)`, or "" for a type-only one. */
function dynamicImport(node: ts.ImportDeclaration, base: URL): string {
  const specifier = (node.moduleSpecifier as ts.StringLiteral).text;
  const target = JSON.stringify(
    specifier.startsWith(".") ? new URL(specifier, base).href : specifier,
  );
  const clause = node.importClause;
  if (!clause) return `await import(${target});`;
  if (clause.isTypeOnly) return "";
  const named = clause.namedBindings;
  if (named && ts.isNamespaceImport(named)) {
    const both = clause.name ? ` const ${clause.name.text} = ${named.name.text}.default;` : "";
    return `const ${named.name.text} = await import(${target});${both}`;
  }
  return `const ${bindings(clause, named)} = await import(${target});`;
}

/**
 * An example as the source of an async function: imports made dynamic,
 * everything else as written.
 *
 * @example
 * ```ts ignore
 * asFunction({ file: "lib/a.ts", line: 3, code: 'import { f } from "./b.ts";\nf();\n' }, root)
 * // 'async () => {\nconst { f } = await import("file:///…/lib/b.ts");\nf();\n}'
 * ```
 */
export function asFunction(example: DocExample, root: URL): string {
  const base = new URL(example.file, root);
  const source = ts.createSourceFile("example.ts", example.code, ts.ScriptTarget.Latest, true);
  const parts = source.statements.map((statement) =>
    ts.isImportDeclaration(statement) ? dynamicImport(statement, base) : statement.getFullText()
  );
  return `async () => {\n${parts.join("\n")}\n}`;
}

/**
 * A module exporting every example as `[file, line, function]`, for the
 * examples of `files` (paths from `root`).
 */
export async function examplesModule(files: readonly string[], root: URL): Promise<string> {
  const entries: string[] = [];
  for (const file of files) {
    for (const example of examplesOf(file, await Deno.readTextFile(new URL(file, root)))) {
      entries.push(`[${JSON.stringify(file)}, ${example.line}, ${asFunction(example, root)}]`);
    }
  }
  // Names an example imports only as types are gone at run time; checking is deno check --doc's.
  return `// @ts-nocheck\nexport const EXAMPLES = [\n${entries.join(",\n")}\n];\n`;
}
