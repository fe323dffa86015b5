/**
 * Runs the Unleash client-token flows (tests/fixtures/secrets/unleash_*.yaml) against a server,
 * as a user would, with every report, and reads each artifact back: the token must be masked in
 * every encoding an artifact writes, and the ordinary words and timestamps of the answers must
 * stay readable. Shared by the stand-in test and the real server's (tests/real/).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const FIXTURES = new URL("../fixtures/secrets/", import.meta.url).pathname;

/** What a run wrote: each artifact's text by name (`stdout` is the console's). */
export type Artifacts = Record<string, string>;

/** Runs `flow` (a fixture's name) against `origin` with `-v` and every report into `dir`. */
export async function runFlow(
  flow: string,
  origin: string,
  adminToken: string,
  dir: string,
  code = 0,
): Promise<Artifacts> {
  const cli = await runCli([
    "run",
    `${FIXTURES}${flow}`,
    "-v",
    ...["--report-json", `${dir}/report.json`, "--report-junit", `${dir}/junit.xml`],
    ...["--report-html", `${dir}/report.html`, "--log-file", `${dir}/run.log.ndjson`],
    ...["--report-har", `${dir}/run.har`],
  ], { env: { UNLEASH_URL: origin, UNLEASH_ADMIN_TOKEN: adminToken } });
  assert.equal(cli.code, code, cli.stdout + cli.stderr);
  const artifacts: Artifacts = { stdout: cli.stdout + cli.stderr };
  for (const name of ["report.json", "junit.xml", "report.html", "run.log.ndjson", "run.har"]) {
    artifacts[name] = await Deno.readTextFile(`${dir}/${name}`);
  }
  // Each artifact parses back (a mask must never break its JSON or XML), and its strings,
  // decoded, are an artifact of their own: a secret must not stand in them either.
  const html = /<script type="application\/json" id="data">(.*?)<\/script>/s.exec(
    artifacts["report.html"],
  );
  assert.ok(html, "the HTML report holds its data");
  const parsed = {
    "report.json": JSON.parse(artifacts["report.json"]),
    "run.har": JSON.parse(artifacts["run.har"]),
    "run.log.ndjson": artifacts["run.log.ndjson"].trim().split("\n").map((l) => JSON.parse(l)),
    "report.html": JSON.parse(html[1]),
  };
  for (const [name, value] of Object.entries(parsed)) {
    artifacts[`${name} (decoded)`] = strings(value);
  }
  assert.match(artifacts["junit.xml"], /^<\?xml[^]*<\/testsuites>\s*$/);
  artifacts["junit.xml (decoded)"] = artifacts["junit.xml"].replace(
    /&(quot|amp|lt|gt|apos);/g,
    (_, e: string) => ({ quot: '"', amp: "&", lt: "<", gt: ">", apos: "'" })[e]!,
  );
  return artifacts;
}

/** Every string inside a parsed document, one a line (a body kept as a string, decoded). */
function strings(value: unknown): string {
  const out: string[] = [];
  const stack = [value];
  for (let budget = 1_000_000; stack.length > 0 && budget > 0; budget--) {
    const v = stack.pop();
    if (typeof v === "string") out.push(v);
    else if (v !== null && typeof v === "object") stack.push(...Object.values(v));
  }
  return out.join("\n");
}

/** The forms of `secret` an artifact could hold: raw, JSON- and URL-encoded, base64, cut. */
export function secretForms(secret: string): string[] {
  const base64 = btoa(secret);
  return [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    base64,
    base64.replaceAll("/", "\\/"),
    secret.slice(0, 16),
    secret.slice(-16),
  ];
}

/** Asserts no form of any of `secrets` is in any artifact. */
export function assertMasked(artifacts: Artifacts, secrets: readonly string[]): void {
  for (const [name, text] of Object.entries(artifacts)) {
    for (const form of secrets.flatMap(secretForms)) {
      assert.ok(!text.includes(form), `${name} holds ${form}`);
    }
  }
}

/** A timestamp as flowrun and the server write them. */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/**
 * Asserts the ordinary words of the answers are readable in every artifact that holds a body
 * or a step name, the token names the flow wrote itself (`own`) in the bodies, and the run's and
 * the server's timestamps.
 */
export function assertReadable(artifacts: Artifacts, own: readonly string[] = []): void {
  const bodies = ["report.json", "report.html", "run.har"];
  const pairs = ['"environment":"development"', '"project":"default"', '"type":"client"'];
  for (const name of bodies) {
    const text = artifacts[name].replaceAll("\\", "");
    for (const pair of [...pairs, ...own.map((o) => `"tokenName":"${o}"`)]) {
      assert.ok(text.includes(pair), `${name} lacks ${pair}`);
    }
  }
  assert.match(artifacts["junit.xml"], /<testcase [^>]*name="client_features"/);
  assert.match(artifacts["junit.xml"], / timestamp="\d{4}-\d{2}-\d{2}T[\d:.]+Z?"/);
  assert.match(artifacts.stdout, /"environment": "development"/);
  assert.match(artifacts.stdout, /equals "development" holds/);
  for (const line of artifacts["run.log.ndjson"].trim().split("\n")) {
    const event = JSON.parse(line);
    assert.match(event.ts, ISO, line);
  }
  const report = JSON.parse(artifacts["report.json"]);
  assert.match(report.started_at, ISO);
  const har = JSON.parse(artifacts["run.har"]);
  for (const entry of har.log.entries) {
    assert.match(entry.startedDateTime, ISO);
    const createdAt = /"createdAt":"([^"]*)"/.exec(entry.response.content.text ?? "")?.[1];
    if (createdAt !== undefined) assert.match(createdAt, ISO, entry.response.content.text);
  }
}
