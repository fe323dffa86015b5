/**
 * Keeps the documentation in docs/ true:
 *
 * - every flow shown in a doc is a real file, included after a
 *   `<!-- file: PATH -->` marker, and the fenced block equals the file;
 * - the recipe flows in examples/recipes/ run green against the demo API;
 * - every error code the sources can emit has a `## <code>` section in
 *   docs/troubleshooting.md, and every such section names a real code;
 * - the example CI pipelines parse as YAML and shard and merge;
 * - every relative link in the README and docs/ points at an existing file
 *   and, for `#anchor` links, an existing heading.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { startDemoApi } from "../examples/demo_api.ts";
import { root, runCli } from "./support/cli.ts";

async function listFiles(dir: string, ext: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(`${root}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...await listFiles(path, ext));
    else if (entry.name.endsWith(ext)) out.push(path);
  }
  return out.sort();
}

const docs = await Promise.all(
  (await listFiles("docs", ".md")).map(async (path) => ({
    path,
    text: await Deno.readTextFile(`${root}${path}`),
  })),
);

/** `<!-- file: PATH -->` on a line of its own, then the next fenced block (any language). */
const MARKER = /^<!-- file: (\S+) -->\s*\n(`{3,})[^\n]*\n([^]*?)\n\2[ \t]*$/gm;

Deno.test("every <!-- file: --> block in docs/ equals its file byte for byte", async () => {
  const markers = docs.flatMap((doc) => [...doc.text.matchAll(/^<!-- file: (\S+) -->/gm)]);
  const blocks = docs.flatMap((doc) =>
    [...doc.text.matchAll(MARKER)].map((m) => ({ doc: doc.path, file: m[1], content: m[3] }))
  );
  assert.ok(blocks.length >= 5, "the docs include their example flows");
  assert.equal(blocks.length, markers.length, "every marker is followed by a fenced block");
  for (const block of blocks) {
    const text = await Deno.readTextFile(`${root}${block.file}`).catch(() => undefined);
    assert.ok(text !== undefined, `${block.doc}: ${block.file} does not exist`);
    assert.equal(
      block.content + "\n",
      text,
      `${block.doc}: the block after <!-- file: ${block.file} --> differs from the file; ` +
        "run deno fmt on both and copy the file into the doc",
    );
  }
  // Every recipe is shown somewhere, so none is an orphan the docs forgot.
  const shown = new Set(blocks.map((b) => b.file));
  for (const recipe of await listFiles("examples/recipes", ".yaml")) {
    assert.ok(shown.has(recipe), `${recipe} is not included in any doc`);
  }
});

Deno.test("the recipe flows in examples/recipes run green against the demo API", async () => {
  const api = await startDemoApi();
  try {
    const run = await runCli(["run", "examples/recipes"], { env: { BASE_URL: api.url } });
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    const count = (await listFiles("examples/recipes", ".yaml")).length;
    assert.match(run.stdout, new RegExp(`${count} flows: ${count} passed`));
  } finally {
    await api.close();
  }
});

Deno.test("the run-level bearer recipe runs green as it says: a token from the environment, --auth-file", async () => {
  const api = await startDemoApi();
  try {
    // The command its comment gives, run as given: outside examples/recipes, it needs its option.
    const recipe = await Deno.readTextFile(`${root}examples/run_auth/flows/me.yaml`);
    const command = /^#\s+flowrun (run .+)$/m.exec(recipe)?.[1].split(" ");
    assert.deepEqual(command, [
      "run",
      "examples/run_auth/flows",
      "--auth-file",
      "examples/run_auth/bearer_token.yaml",
    ]);
    // The token from /login, as the comment's curl takes it.
    const login = await fetch(`${api.url}/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "demo", password: "demo-password" }),
    });
    const { token } = await login.json();
    const run = await runCli([...command!, "-v"], { env: { BASE_URL: api.url, API_TOKEN: token } });
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /1 flow: 1 passed/);
    assert.ok(!run.stdout.includes(token) && !run.stderr.includes(token), "the token is masked");
  } finally {
    await api.close();
  }
});

const CODE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/**
 * Every problem and usage code the sources can emit, found by reading them:
 * `UsageError("code"`, loader `#problem("code"` and `c.report("code"`,
 * `code: "code"` objects, and the codes of `SyntaxAtError` subclasses. A code
 * built at run time (`bad-${option}`) is expanded from its call sites.
 */
async function emittedCodes(): Promise<Set<string>> {
  const files = ["cli.ts", ...await listFiles("cli", ".ts"), ...await listFiles("lib", ".ts")];
  const codes = new Set<string>();
  const optionCodes = new Set<string>();
  let expandOptions = false;
  for (const file of files) {
    const source = (await Deno.readTextFile(`${root}${file}`))
      .split("\n")
      // Doc comments hold examples, not emitted codes.
      .filter((line) => !/^\s*(\*|\/\*\*|\/\/)/.test(line))
      .join("\n");
    const literal = [
      /\bUsageError\(\s*"([^"]+)"/g,
      /(?:#|\.)problem(?:At)?\(\s*"([^"]+)"/g,
      /\.report\(\s*"([^"]+)"/g,
      /\bcode: "([^"]+)",/g,
      /\bnew SyntaxAtError\(\s*"([^"]+)"/g,
      // Input files refused by lib/io/read.ts: the error's code is the problem's.
      /\bnew InputFileError\(\s*[^,()]+,\s*"([^"]+)"/g,
    ];
    for (const pattern of literal) {
      for (const m of source.matchAll(pattern)) codes.add(m[1]);
    }
    // Error classes of a code of their own pass it to the class they extend.
    if (/extends (?:SyntaxAtError|UsageError)\b/.test(source)) {
      for (const m of source.matchAll(/\bsuper\(\s*"([^"]+)"/g)) codes.add(m[1]);
    }
    // positiveInteger() reports `bad-${option}`: expand it from every call site, in any file.
    for (const o of source.matchAll(/\b(?:positiveInteger|byteSize)\(\s*[^,()]+,\s*"([a-z-]+)"/g)) {
      optionCodes.add(`bad-${o[1]}`);
    }
    // duration() takes the option second, like positiveInteger(); pem() (reading --cacert,
    // --cert, --key) takes it first.
    for (const o of source.matchAll(/\bduration\(\s*[^,()]+,\s*"([a-z-]+)"/g)) {
      optionCodes.add(`bad-${o[1]}`);
    }
    for (const o of source.matchAll(/\bpem\(\s*"([a-z-]+)"/g)) optionCodes.add(`bad-${o[1]}`);
    for (const m of source.matchAll(/\bUsageError\(\s*`([^`]*)`/g)) {
      if (m[1] === "bad-${option}") expandOptions = true;
      else if (m[1].includes("${")) {
        assert.fail(`${file}: teach docs_test.ts how to expand the code \`${m[1]}\``);
      } else codes.add(m[1]);
    }
  }
  if (expandOptions) {
    assert.ok(optionCodes.size > 0, "no positiveInteger call sites for bad-${option}");
    for (const code of optionCodes) codes.add(code);
  }
  for (const code of codes) assert.match(code, CODE, `a code is kebab-case: ${code}`);
  return codes;
}

/** Codes the scanner must find; a scanner that finds none of them would pass vacuously. */
const KNOWN_CODES = [
  "yaml-syntax",
  "yaml-too-large",
  "wrong-type",
  "missing-key",
  "unknown-key",
  "duplicate-step",
  "bad-path",
  "bad-expression",
  "unset-env",
  "later-step",
  "dependency-cycle",
  "file-read",
  "bad-option",
  "bad-timeout",
  "bad-jobs",
  "bad-shard",
  "no-shard-env",
  "unwritable",
  "duplicate-flow",
];

Deno.test("every error code has a section in docs/troubleshooting.md, and only those", async () => {
  const codes = await emittedCodes();
  for (const code of KNOWN_CODES) assert.ok(codes.has(code), `the scanner finds ${code}`);
  const text = await Deno.readTextFile(`${root}docs/troubleshooting.md`);
  const sections = [...text.matchAll(/^## (.+?)\s*$/gm)].map((m) => m[1]).filter((h) =>
    CODE.test(h)
  );
  const seen = new Set<string>();
  for (const section of sections) {
    assert.ok(!seen.has(section), `## ${section} appears twice`);
    seen.add(section);
    assert.ok(codes.has(section), `## ${section} names no code the sources emit`);
  }
  const missing = [...codes].filter((code) => !seen.has(code)).sort();
  assert.deepEqual(missing, [], "codes without a ## section in docs/troubleshooting.md");
});

Deno.test("the example CI pipelines parse as YAML, shard the run and merge the reports", async () => {
  for (const file of ["docs/ci/github-actions.yml", "docs/ci/gitlab-ci.yml"]) {
    const text = await Deno.readTextFile(`${root}${file}`);
    const value = parse(text);
    assert.ok(value !== null && typeof value === "object", `${file} is a YAML map`);
    assert.match(text, /--shard /, `${file} shards the run`);
    assert.match(text, /flowrun merge /, `${file} merges the shards' reports`);
    assert.match(text, /junit/i, `${file} publishes JUnit`);
  }
});

/** The anchors GitHub gives a Markdown file's headings. */
function anchors(markdown: string): Set<string> {
  const headings = markdown.replace(/^(`{3,})[^]*?^\1/gm, "").matchAll(/^#{1,6} +(.+?)\s*$/gm);
  return new Set(
    [...headings].map((m) =>
      m[1].toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-")
    ),
  );
}

Deno.test("every relative link in the README and docs/ points at an existing file and heading", async () => {
  const readme = { path: "README.md", text: await Deno.readTextFile(`${root}README.md`) };
  for (const doc of [readme, ...docs]) {
    // Code spans and fenced blocks are not links.
    const prose = doc.text.replace(/^(`{3,})[^]*?^\1/gm, "").replace(/`[^`\n]*`/g, "");
    const dir = doc.path.slice(0, doc.path.lastIndexOf("/") + 1);
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [file, anchor] = target.split("#");
      const path = decodeURIComponent(
        file === "" ? `${root}${doc.path}` : new URL(file, `file://${root}${dir}`).pathname,
      );
      const exists = await Deno.stat(path).then(() => true, () => false);
      assert.ok(exists, `${doc.path}: the link ${target} points at nothing`);
      if (anchor !== undefined && path.endsWith(".md")) {
        const headings = anchors(await Deno.readTextFile(path));
        assert.ok(headings.has(anchor), `${doc.path}: the link ${target} names no heading`);
      }
    }
  }
});
