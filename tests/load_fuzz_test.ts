/**
 * No flow file, however broken, crashes the loader or the CLI: the example
 * flows are mutated (bytes flipped, lines dropped or repeated, cut short,
 * YAML tokens and huge numbers and deep nesting inserted), and every mutant
 * must load into a flow or into positioned problems. Bounded and seeded.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../lib/load.ts";
import { root, runCli } from "./support/cli.ts";
import "./support/engines.ts";
import { PROTOTYPE_NAMES } from "./support/hostile.ts";

const EXAMPLES = ["examples/flows", "examples/recipes"];

async function examples(): Promise<string[]> {
  const texts: string[] = [];
  for (const dir of EXAMPLES) {
    for await (const entry of Deno.readDir(`${root}${dir}`)) {
      if (entry.isFile && entry.name.endsWith(".yaml")) {
        texts.push(await Deno.readTextFile(`${root}${dir}/${entry.name}`));
      }
    }
  }
  return texts.sort();
}

function random(seed: number) {
  return () => (seed = (seed * 16807) % 2147483647) / 2147483647;
}

const TOKENS = [
  "{",
  "}",
  "[",
  "]",
  ":",
  "- ",
  "&a ",
  "*a",
  "<<: *a",
  "!!binary",
  "|",
  ">-",
  '"',
  "'",
  "#",
  "\t",
  "${",
  "${ENV.",
  "$.json[?",
  "1e308",
  "12345678901234567890",
  "-0",
  ".nan",
  "~",
  "\u0000",
  "\ufeff",
  "[".repeat(400),
  "- ".repeat(50),
  "{a: ".repeat(300),
  // Names of Object.prototype members, as keys and as values.
  "constructor: 1\n",
  "toString: ",
  "valueOf",
  "hasOwnProperty: hasOwnProperty",
  "__proto__: ",
  "prototype",
];

function mutate(text: string, next: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const at = Math.floor(next() * text.length);
  const lines = text.split("\n");
  const line = Math.floor(next() * lines.length);
  switch (Math.floor(next() * 7)) {
    case 0:
      return text.slice(0, at) +
        String.fromCharCode(text.charCodeAt(at) ^ (1 << Math.floor(next() * 7))) +
        text.slice(at + 1);
    case 1:
      return lines.filter((_, i) => i !== line).join("\n");
    case 2:
      return [...lines.slice(0, line), lines[line], ...lines.slice(line)].join("\n");
    case 3:
      return text.slice(0, at);
    case 4:
      return text.slice(0, at) + pick(TOKENS) + text.slice(at);
    case 5: {
      // A key or a value renamed to an Object.prototype member's name.
      const names = [...text.matchAll(/(?<=^\s*(?:- )?)[A-Za-z_]\w*(?=:)|(?<=: )[A-Za-z_]\w*$/gm)];
      if (names.length === 0) return text;
      const m = pick(names);
      return text.slice(0, m.index) + pick(PROTOTYPE_NAMES) + text.slice(m.index! + m[0].length);
    }
    default:
      return lines.map((l, i) =>
        i === line ? `${" ".repeat(Math.floor(next() * 9))}${l.trim()}` : l
      )
        .join("\n");
  }
}

Deno.test("3,000 mutated flows load into a flow or positioned problems, never an exception", async () => {
  const next = random(2026);
  const sources = await examples();
  let broken = 0;
  for (let i = 0; i < 3000; i++) {
    let text = sources[i % sources.length];
    for (let k = 1 + Math.floor(next() * 3); k > 0; k--) text = mutate(text, next);
    const result = loadFlow(text, `m${i}.yaml`, { env: () => "x" });
    if (result.problems.length > 0) broken++;
    else assert.ok(result.flow, `mutant ${i} has neither a flow nor problems`);
    for (const p of result.problems) {
      assert.ok(p.line >= 1 && p.column >= 1, `mutant ${i}: ${p.code} at ${p.line}:${p.column}`);
      assert.ok(p.message.length < 2000, `mutant ${i}: a long message`);
    }
    assert.ok(result.problems.length <= 200, `mutant ${i}: ${result.problems.length} problems`);
  }
  assert.ok(broken > 500, `${broken} broken: mutations reach the loader's checks`);
});

Deno.test("mutated flows through the CLI: exit 0 or 2, no stack trace, bounded output", async () => {
  const next = random(7);
  const sources = await examples();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-fuzz-" });
  try {
    for (let i = 0; i < 24; i++) {
      let text = sources[i % sources.length];
      for (let k = 1 + Math.floor(next() * 3); k > 0; k--) text = mutate(text, next);
      await Deno.writeTextFile(`${dir}/m${i}.yaml`, text);
      const result = await runCli(["validate", `${dir}/m${i}.yaml`, "--no-env"]);
      const output = result.stdout + result.stderr;
      assert.ok([0, 2].includes(result.code), `mutant ${i}: exit ${result.code}\n${output}`);
      assert.doesNotMatch(output, /internal error|^\s+at /m, `mutant ${i}`);
      assert.ok(output.length < 20_000, `mutant ${i}: ${output.length} characters`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
