/**
 * Runs flows with the CLI as a subprocess, at `-v` with every artifact (console, JSON, JUnit,
 * HTML, NDJSON log, run manifest, GitHub job summary), and reads each back parsed: the short
 * secret tests look field by field for where a value or flowrun's own word ended up. Shared by
 * short_secret_names_test.ts and short_secret_messages_test.ts.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** Echoes what a request sent: `q` as `got` (a number when it is digits), a login's user; text at /text. */
export function startEchoing(): { base: string; close: () => Promise<void> } {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/login") {
      const { user } = await req.json();
      return Response.json({ user, status: "passed" });
    }
    const q = url.searchParams.get("q") ?? "";
    if (url.pathname === "/text") return new Response(`plain ${q}`);
    return Response.json({
      status: "passed",
      got: q,
      ...(/^\d+$/.test(q) ? { n: Number(q) } : {}),
    });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

/** What one run wrote, parsed back. */
export interface Written {
  code: number;
  console: string;
  report: {
    flows: {
      name: string;
      steps: {
        name: string;
        message?: string;
        assertions: { message: string; actual: unknown }[];
      }[];
    }[];
  };
  manifest: unknown;
  log: Record<string, unknown>[];
  junit: string;
  html: string;
  summary: string;
  /** Every text of every artifact: the console, each string of the JSON ones, XML unescaped. */
  texts: string[];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** `text` with XML's entities read back. */
export function unescapeXml(text: string): string {
  return text.replace(
    /&(#x?[0-9a-f]+|\w+);/gi,
    (_, e: string) =>
      e.startsWith("#")
        ? String.fromCodePoint(parseInt(e.slice(e[1] === "x" ? 2 : 1), e[1] === "x" ? 16 : 10))
        : ENTITIES[e],
  );
}

/** Every string and number of a parsed JSON value (its keys are flowrun's field names). */
export function leaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string" || typeof value === "number") out.push(String(value));
  else if (Array.isArray(value)) { for (const v of value) leaves(v, out); }
  else if (value !== null && typeof value === "object") {
    for (const v of Object.values(value)) leaves(v, out);
  }
  return out;
}

/**
 * Writes `texts` (file name → flow text) into `dir` and runs them in that order with `env`,
 * as {@linkcode runWritten} does.
 */
export async function runTexts(
  texts: Record<string, string>,
  dir: string,
  env: Record<string, string>,
): Promise<Written> {
  const files = Object.keys(texts).map((name) => `${dir}/${name}`);
  for (const [name, text] of Object.entries(texts)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return await runWritten(files, dir, env);
}

/**
 * Runs `files` with `env` and `args` (and Deno's permissions `allow`), every artifact into
 * `dir`/out; reads them back.
 */
export async function runWritten(
  files: readonly string[],
  dir: string,
  env: Record<string, string>,
  args: readonly string[] = [],
  allow: readonly string[] = [],
): Promise<Written> {
  const out = `${dir}/out`;
  const summaryFile = `${dir}/summary.md`;
  const cli = await runCli(["run", ...files, "-v", "--jobs", "1", "--out-dir", out, ...args], {
    env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summaryFile, ...env },
    allow,
  });
  const read = (name: string) => Deno.readTextFile(`${out}/${name}`);
  const report = JSON.parse(await read("report.json"));
  const manifest = JSON.parse(await read("manifest.json"));
  const log = (await read("run.log.ndjson")).trim().split("\n").map((l) => JSON.parse(l));
  const junit = await read("junit.xml");
  const html = await read("report.html");
  const summary = await Deno.readTextFile(summaryFile);
  assert.match(junit, /^<\?xml[^>]*\?>\s*<testsuites[\s>][^]*<\/testsuites>\s*$/);
  const data = /<script type="application\/json" id="data">(.*?)<\/script>/s.exec(html);
  assert.ok(data, "the HTML report holds its data");
  const texts = [
    cli.stdout,
    cli.stderr,
    summary,
    ...leaves(report),
    ...leaves(manifest),
    ...log.flatMap((l) => leaves(l)),
    ...leaves(JSON.parse(data[1])),
    unescapeXml(junit),
  ];
  return {
    code: cli.code,
    console: cli.stdout + cli.stderr,
    report,
    manifest,
    log,
    junit,
    html,
    summary,
    texts,
  };
}

/**
 * Runs the flow text `yaml` against an echo server started for it, with `env`, as
 * {@linkcode runWritten} does; the server and the folder are gone when it resolves.
 */
export async function runFlowText(
  yaml: string,
  env: Record<string, string>,
  args: readonly string[] = [],
): Promise<Written> {
  const srv = startEchoing();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-secret-" });
  try {
    await Deno.writeTextFile(`${dir}/flow.yaml`, yaml);
    return await runWritten([`${dir}/flow.yaml`], dir, { BASE_URL: srv.base, ...env }, args);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Asserts each message of `said` is in the console (unless `console` is false), in at least
 * `artifacts` texts of the run's artifacts, and logged as a step's end.
 */
export function saidEverywhere(
  w: Written,
  said: readonly string[],
  { console = true, artifacts = 4 }: { console?: boolean; artifacts?: number } = {},
): void {
  for (const text of said) {
    const words = text.replace(/\.$/, "");
    if (console) assert.ok(w.console.includes(words), `console: ${words}\n${w.console}`);
    assert.ok(w.texts.filter((t) => t.includes(words)).length >= artifacts, words);
  }
  const logged = w.log.filter((l) => l.event === "step_end").map((l) => l.message);
  for (const text of said) assert.ok(logged.includes(text), JSON.stringify(logged));
}

/** Asserts no text of any artifact holds one of `leaks`, or a word of flowrun's `masked` finds. */
export function noLeak(w: Written, leaks: readonly string[], masked?: RegExp): void {
  for (const text of w.texts) {
    for (const leak of leaks) assert.ok(!text.includes(leak), `${leak} in ${text.slice(0, 400)}`);
    if (masked) assert.ok(!masked.test(text), text);
  }
}

/**
 * Writes `flow` as `dir`/flow.yaml and runs it as {@linkcode runWritten} does, with `args` and a
 * HAR report too (`dir`/out/run.har), read back as `har`.
 */
export async function runFlowWithHar(
  flow: string,
  dir: string,
  env: Record<string, string>,
  args: readonly string[] = [],
): Promise<Written & { har: string }> {
  await Deno.writeTextFile(`${dir}/flow.yaml`, flow);
  const har = `${dir}/out/run.har`;
  const w = await runWritten([`${dir}/flow.yaml`], dir, env, [...args, "--report-har", har]);
  return { ...w, har: await Deno.readTextFile(har) };
}

/** The `name` of each `<testcase>` of each `<testsuite>` of a JUnit report, unescaped. */
export function testcases(junit: string): Map<string, string[]> {
  const suites = new Map<string, string[]>();
  for (const suite of junit.matchAll(/<testsuite\b([^>]*)>([^]*?)<\/testsuite>/g)) {
    const name = unescapeXml(/\bname="([^"]*)"/.exec(suite[1])![1]);
    const cases = [...suite[2].matchAll(/<testcase\b[^>]*?\bname="([^"]*)"/g)]
      .map((m) => unescapeXml(m[1]));
    suites.set(name, cases);
  }
  return suites;
}

/**
 * A flow's step `step` (YAML, at the steps' indent) sending passwords 1 to `count` of the env:
 * the first in the URL's query, the others in headers `x-a`, `x-b`, … — so the run knows each
 * as a secret before the step under test quotes it.
 */
export function sendsPasswords(step: string, count: number): string {
  const headers = Array.from(
    { length: count - 1 },
    (_, i) => `        x-${"abcdefghij"[i]}: "\${ENV.PASSWORD_${i + 2}}"`,
  );
  return [
    `  - name: ${step}`,
    "    request:",
    '      url: "${BASE_URL}/items?q=${ENV.PASSWORD_1}"',
    "      headers:",
    ...headers,
  ].join("\n");
}
