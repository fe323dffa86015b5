/**
 * Every runnable example of the project's JSDoc and Markdown, one test each,
 * in this one process (tests/support/doc_examples.ts says why and how).
 * Where they are is the same set `deno test --doc .` ran: every TypeScript
 * module and Markdown file outside the ignored folders.
 */
import assert from "node:assert/strict";
import { asFunction, examplesModule, examplesOf } from "./support/doc_examples.ts";

const ROOT = new URL("../", import.meta.url);
const SKIPPED = new Set([".git", "node_modules", "dist", "bench/out", ".ci/out", "tests/out"]);

async function sources(dir = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(new URL(dir || ".", ROOT))) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory && !SKIPPED.has(path) && !path.endsWith("/out")) {
      found.push(...await sources(`${path}/`));
    } else if (entry.isFile && /\.(ts|md)$/.test(entry.name)) {
      found.push(path);
    }
  }
  return found.sort();
}

const files = await sources();
const generated = new URL(`tests/out/doc_examples_${Deno.pid}.ts`, ROOT);
await Deno.mkdir(new URL("./", generated), { recursive: true });
await Deno.writeTextFile(generated, await examplesModule(files, ROOT));
const { EXAMPLES } = await import(generated.href) as {
  EXAMPLES: [string, number, () => Promise<void>][];
};
await Deno.remove(generated);

for (const [file, line, example] of EXAMPLES) {
  Deno.test(`${file}#${line}`, example);
}

Deno.test("the examples runner reads the blocks Deno runs and makes their imports dynamic", () => {
  const fence = "```";
  const module = [
    "/**",
    " * @example",
    ` * ${fence}ts`,
    ' * import { a, type B, c as d } from "./x.ts";',
    ' * import type { E } from "./e.ts";',
    ' * import def, * as ns from "node:path";',
    ' * import "./side.ts";',
    " * if (d(a) !== 1) throw new Error();",
    ` * ${fence}`,
    ` * ${fence}ts ignore`,
    " * not run",
    ` * ${fence}`,
    ` * ${fence}sh`,
    " * echo not run either",
    ` * ${fence}`,
    " */",
  ].join("\n");
  const [example, ...more] = examplesOf("lib/m.ts", module);
  assert.equal(more.length, 0);
  assert.equal(example.line, 3);
  const root = new URL("file:///p/");
  const code = asFunction(example, root);
  assert.ok(code.includes('const { a, c: d } = await import("file:///p/lib/x.ts");'), code);
  assert.ok(!code.includes("/e.ts"), code);
  assert.ok(code.includes('const ns = await import("node:path"); const def = ns.default;'), code);
  assert.ok(code.includes('await import("file:///p/lib/side.ts");'), code);
  assert.ok(code.includes("if (d(a) !== 1) throw new Error();"), code);
  const markdown = examplesOf("docs/a.md", `Text\n\n${fence}ts\nf();\n${fence}\n`);
  assert.deepEqual(markdown, [{ file: "docs/a.md", line: 3, code: "f();\n" }]);
});

Deno.test("every module with a runnable example has its examples here", () => {
  assert.ok(EXAMPLES.length >= 1000, `${EXAMPLES.length} examples`);
  for (
    const file of ["mod.ts", "lib/load/load_flow.ts", "cli/current_bundle.ts", "docs/versioning.md"]
  ) {
    assert.ok(EXAMPLES.some(([f]) => f === file), file);
  }
});
