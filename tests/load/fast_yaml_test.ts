/**
 * The YAML fast path builds exactly what the `yaml` package builds (node
 * kinds, values, scalar styles, sources and the source ranges messages use)
 * for every file it accepts, and hands everything else to the full parser:
 * checked on every YAML file of the repository, on line-by-line mutations of
 * them, and on generated documents in the subset and just outside it.
 */
import assert from "node:assert/strict";
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, Parser } from "yaml";
import { fastParse } from "../../lib/load/fast_yaml.ts";
import { esmBuildOf, yamlEngine } from "../../lib/load/yaml_engine.ts";
import { root } from "../support/cli.ts";

/** The tree as plain data: what the loader reads of each node. */
function shape(node: unknown): unknown {
  if (isMap(node) || isSeq(node)) {
    return {
      kind: isMap(node) ? "map" : "seq",
      flow: node.flow ?? false,
      range: node.range?.slice(0, 2),
      items: node.items.map((item) =>
        isPair(item) ? [shape(item.key), shape(item.value)] : shape(item)
      ),
    };
  }
  if (isScalar(node)) {
    const v = node.value;
    return {
      value: typeof v === "bigint" ? `${v}n` : Number.isNaN(v) ? "NaN" : v,
      type: node.type,
      source: node.source,
      // Messages interpolate key nodes.
      text: String(node),
      range: node.range?.slice(0, 2),
    };
  }
  return node === null ? null : `unexpected ${String(node)}`;
}

/** Compares the fast path with the full parser; `true` when the fast path took the text. */
function agree(text: string, label: string): boolean {
  const fast = fastParse(text);
  if (!fast) return false;
  const slow = parseDocument(text, { uniqueKeys: true, merge: true, intAsBigInt: true });
  assert.deepEqual(slow.errors.map((e) => e.message), [], `${label}: accepted a file with errors`);
  assert.deepEqual(shape(fast.doc.contents), shape(slow.contents), label);
  // Inline JSON schemas are read with toJSON.
  const json = (node: unknown) => (node as { toJSON?(): unknown } | null)?.toJSON?.() ?? node;
  assert.deepEqual(json(fast.doc.contents), json(slow.contents), `${label}: toJSON`);
  // As the loader's line counter gets them from the full parser.
  const lines = new LineCounter();
  for (const _ of new Parser(lines.addNewLine).parse(text));
  assert.deepEqual(fast.lineStarts, lines.lineStarts, `${label}: line starts`);
  return true;
}

async function yamlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    // bench/out and tests' out folders hold what runs wrote (10,000 generated flows after a
    // bench:scale run), not the repository's YAML.
    if (entry.isDirectory && entry.name === "out") continue;
    if (entry.isDirectory) out.push(...await yamlFiles(path));
    else if (/\.ya?ml$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

Deno.test("every YAML file of the repository: the same tree, or the full parser", async () => {
  let taken = 0;
  let total = 0;
  for (const dir of ["examples", "tests/cases", "tests/fixtures", "bench", "docs/ci"]) {
    for (const file of await yamlFiles(`${root}${dir}`)) {
      total++;
      const text = await Deno.readTextFile(file);
      if (agree(text, file)) taken++;
      // Each line removed, and each line indented by one more space: near-misses.
      const lines = text.split("\n").slice(0, 60);
      for (let i = 0; i < lines.length; i++) {
        const without = [...lines.slice(0, i), ...lines.slice(i + 1)].join("\n");
        agree(without, `${file} without line ${i + 1}`);
        const shifted = [...lines.slice(0, i), ` ${lines[i]}`, ...lines.slice(i + 1)].join("\n");
        agree(shifted, `${file} with line ${i + 1} indented`);
      }
    }
  }
  // The fast path is the common case, not the exception.
  assert.ok(taken / total > 0.6, `fast path took ${taken} of ${total} files`);
});

Deno.test("generated documents in the subset and around it", () => {
  let seed = 7;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const scalars = [
    "a",
    "hello world",
    "1",
    "-2",
    "+3",
    "0x1F",
    "0o17",
    "1.5",
    ".5",
    "1e3",
    ".inf",
    "-.Inf",
    ".nan",
    "true",
    "False",
    "null",
    "~",
    "",
    "9007199254740993",
    '"quoted \\"x\\" \\u00e9 \\n"',
    "'it''s'",
    "http://x.test/a?b=1#c",
    "${ENV.BASE_URL}/x",
    "$.json.items[0].id",
    "a: b",
    "a #b",
    "- x",
    "&a x",
    "*a",
    "!tag x",
    "|",
    "x y ",
    "[1, 2]",
    "{a: 1, b: [c, d]}",
    "[ ]",
    "{}",
    "[a, [b, {c: d}]]",
    "{a: }",
    '{"k": v}',
    "[a b, c]",
    "@x",
    "`x`",
    "?x",
    "-x",
    ":x",
  ];
  const keys = ["name", "a", "b", "url", '"q k"', "'s k'", "1", "true", "x y", "<<", "name"];
  const gen = (indent: number, depth: number): string[] => {
    const pad = " ".repeat(indent);
    const lines: string[] = [];
    const asSeq = rnd(3) === 0;
    const n = 1 + rnd(4);
    for (let k = 0; k < n; k++) {
      const prefix = asSeq ? "- " : `${keys[rnd(keys.length)]}:${rnd(4) === 0 ? "" : " "}`;
      if (depth < 3 && rnd(3) === 0) {
        lines.push(pad + prefix.trimEnd() + (rnd(5) === 0 ? " # c" : ""));
        const inner = indent + (asSeq || rnd(4) ? 2 : 0);
        lines.push(...gen(inner === indent && !asSeq ? indent : inner, depth + 1));
      } else {
        lines.push(pad + prefix + scalars[rnd(scalars.length)] + (rnd(6) === 0 ? "  # note" : ""));
      }
      if (rnd(8) === 0) lines.push("");
    }
    return lines;
  };
  let taken = 0;
  for (let i = 0; i < 3000; i++) {
    const text = gen(0, 0).join("\n") + (rnd(2) ? "\n" : "");
    if (agree(text, `generated #${i}:\n${text}`)) taken++;
  }
  assert.ok(taken > 300, `fast path took ${taken} of 3000`);
});

Deno.test("the full parser is the yaml package's ES module build, not the CommonJS one Deno loads file by file", async () => {
  const engine = await yamlEngine.load();
  const commonJs = await import("yaml");
  // The CommonJS build (73 files, about 45 ms to load) is a module of its own: a different namespace.
  assert.notEqual(engine, commonJs);
  for (const name of ["parseDocument", "Composer", "Parser", "Lexer", "LineCounter", "parse"]) {
    assert.equal(typeof (engine as Record<string, unknown>)[name], "function", name);
  }
  // Nodes of either build are recognised by the other (the marks are global symbols).
  const doc = engine.parseDocument("a: [1, 2]\n");
  assert.ok(isMap(doc.contents));
  assert.deepEqual(doc.toJS(), parseDocument("a: [1, 2]\n").toJS());
  assert.equal(esmBuildOf(import.meta.resolve("yaml"))?.endsWith("/browser/index.js"), true);
});
