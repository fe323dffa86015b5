/**
 * No flow file, however broken, crashes the loader or the CLI: the example
 * flows are mutated (bytes flipped, lines dropped or repeated, cut short,
 * YAML tokens and huge numbers and deep nesting inserted), and every mutant
 * must load into a flow or into positioned problems; flows that name hostile
 * files (devices, FIFOs, folders, symlink loops, oversized files) in random
 * places end validate at once with positioned problems. Bounded and seeded.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { root, runCli, spawnCli } from "../support/cli.ts";
import "../support/engines.ts";
import { PROTOTYPE_NAMES } from "../support/hostile.ts";

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

/** Keys that make a flow read a file, each as a step's lines with the path in place of `P`. */
const FILE_KEYS = [
  'request: {url: "http://127.0.0.1:9/", method: POST, body_file: "P"}',
  'request: {url: "http://127.0.0.1:9/", method: POST, multipart: {f: {file: "P"}}}',
  'include: "P"',
  'request: {url: "http://127.0.0.1:9/"}\n    assert: {schema: "P"}',
  'request: {url: "http://127.0.0.1:9/"}\n    assert: {openapi: "P"}',
  'request: {url: "https://127.0.0.1:9/"}\n    options: {ca_cert: "P", client_key: "P"}',
];

Deno.test("flows naming hostile files in random places: validate ends at once, exit 2, positioned problems", async () => {
  const next = random(37);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const dir = await Deno.makeTempDir({ prefix: "flowrun-fuzz-files-" });
  try {
    const made = await new Deno.Command("mkfifo", { args: [`${dir}/fifo`] }).output();
    assert.equal(made.code, 0, "mkfifo works here");
    await Deno.mkdir(`${dir}/folder`);
    await Deno.symlink(`${dir}/loop`, `${dir}/loop`);
    await Deno.writeTextFile(`${dir}/big`, "");
    await Deno.truncate(`${dir}/big`, 300 * 1024 * 1024); // sparse: past every input's limit
    const targets = ["/dev/zero", "/dev/urandom", `${dir}/fifo`, `${dir}/folder`, `${dir}/loop`];
    targets.push(`${dir}/missing`, `${dir}/big`);
    await Deno.mkdir(`${dir}/flows`);
    for (let i = 0; i < 16; i++) {
      const steps = Array.from(
        { length: 1 + Math.floor(next() * 4) },
        (_, s) => `  - name: s${s}\n    ${pick(FILE_KEYS).replaceAll("P", pick(targets))}\n`,
      );
      let text = `name: hostile ${i}\ndata: {file: "${pick(targets)}"}\nsteps:\n${steps.join("")}`;
      if (next() < 0.5) text = mutate(text, next);
      await Deno.writeTextFile(`${dir}/flows/f${i}.yaml`, text);
    }
    const child = spawnCli(["validate", "--format", "json", `${dir}/flows`]);
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    const output = await child.output();
    clearTimeout(timer);
    const stdout = new TextDecoder().decode(output.stdout);
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 2, `validate hung or crashed: ${output.code}\n${stderr}`);
    assert.doesNotMatch(stdout + stderr, /internal error|^\s+at /m);
    const problems: { line: number; column: number; code: string }[] = JSON.parse(stdout);
    assert.ok(problems.length >= 16, `${problems.length} problems for 16 hostile flows`);
    for (const p of problems) assert.ok(p.line >= 1 && p.column >= 1, JSON.stringify(p));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
