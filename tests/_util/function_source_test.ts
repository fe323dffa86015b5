import assert from "node:assert/strict";
import { functionSource } from "../../lib/_util/function_source.ts";

const ROOT = new URL("../../", import.meta.url);

Deno.test("a renamed function is called by its old name, and its helpers by theirs", () => {
  // What a bundler makes of two modules that both declare `evaluate`.
  const evaluate2 = function evaluate2(n: number): number {
    return helper(n) * 2;
  };
  const helper = function helper(n: number) {
    return n + 1;
  };
  const text = `${functionSource(evaluate2, "evaluate")}\n${functionSource(helper, "helper")}\n` +
    "return evaluate(20);";
  assert.equal(new Function(text)(), 42);
  // An arrow has no declared name: bound under the one given.
  const arrow = (n: number) => n * 3;
  assert.equal(new Function(`${functionSource(arrow, "triple")}\nreturn triple(14);`)(), 42);
});

async function* sources(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) yield* sources(new URL(`${entry.name}/`, dir));
    else if (entry.name.endsWith(".ts")) yield new URL(entry.name, dir);
  }
}

Deno.test("no function reaches the helper thread as text but through functionSource", async () => {
  const found: string[] = [];
  for await (const file of sources(new URL("lib/", ROOT))) {
    const text = await Deno.readTextFile(file);
    for (const [i, line] of text.split("\n").entries()) {
      // `${fn.toString()}` in a task's source keeps the name a bundler gave fn, not its callers'.
      if (/\$\{\s*[\w$.]+\.toString\(\)\s*\}/.test(line)) {
        found.push(`${file.pathname.slice(ROOT.pathname.length)}:${i + 1}`);
      }
    }
  }
  assert.deepEqual(found, []);
});
