/**
 * Masking at write time, end to end: the run's events are raw and each
 * artifact masks what it writes. A value that a later flow meets as a secret
 * is masked in the whole-file artifacts of an earlier flow that held it (they
 * are written at the end, knowing every secret of the run); a secret number
 * becomes "***" and every report and log line stays valid; no temporary file
 * is left to hold anything.
 */
import assert from "node:assert/strict";
import { runCli } from "../../support/cli.ts";

const LATE = "l4te-s3cret-9f8e7d6c5b4a";
const PIN = 98765432;

function server() {
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    // /a: a plain field (nothing says it is secret yet); /b: the same value as a token.
    if (path === "/a") return Response.json({ note: LATE, api_key: PIN });
    return Response.json({ access_token: LATE });
  });
  return { url: `http://127.0.0.1:${s.addr.port}`, close: () => s.shutdown() };
}

Deno.test("a secret a later flow learns is masked in every whole-file artifact of an earlier flow", async () => {
  const api = server();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-write-masking-" });
  const tmp = await Deno.makeTempDir({ prefix: "flowrun-write-masking-tmp-" });
  try {
    await Deno.mkdir(`${dir}/flows`);
    // a.yaml runs first (--jobs 1, files in order) and fails on the value b.yaml learns is secret.
    await Deno.writeTextFile(
      `${dir}/flows/a.yaml`,
      `name: a
steps:
  - name: read
    request: {url: "${api.url}/a"}
    assert:
      json:
        - {path: $.json.note, equals: "something else"}
        - {path: $.json.api_key, equals: 1}
`,
    );
    await Deno.writeTextFile(
      `${dir}/flows/b.yaml`,
      `name: b
steps:
  - name: token
    request: {url: "${api.url}/b"}
    assert: {status: 200}
`,
    );
    const run = await runCli(
      [
        "run",
        `${dir}/flows`,
        "--jobs",
        "1",
        "--out-dir",
        `${dir}/out`,
        "--report-codequality",
        `${dir}/out/cq.json`,
      ],
      { env: { TMPDIR: tmp } },
    );
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const read = (name: string) => Deno.readTextFileSync(`${dir}/out/${name}`);
    for (const name of ["report.json", "junit.xml", "report.html", "manifest.json", "cq.json"]) {
      assert.ok(!read(name).includes(LATE), `${name} holds the late secret`);
      assert.ok(!read(name).includes(String(PIN)), `${name} holds the secret number`);
    }
    const report = JSON.parse(read("report.json"));
    const [note, pin] = report.flows[0].steps[0].assertions;
    assert.equal(note.actual, "***");
    // Masked as a value: the report is JSON, and the number a string.
    assert.equal(pin.actual, "***");
    assert.match(read("junit.xml"), /\*\*\*/);
    // The log writes a flow's lines when the flow ends: every line is JSON, the number masked.
    const lines = read("run.log.ndjson").trim().split("\n").map((l) => JSON.parse(l));
    const pinLine = lines.find((l) => l.event === "assertion" && l.path === "$.json.api_key");
    assert.equal(pinLine.actual, "***");
    assert.ok(!read("run.log.ndjson").includes(String(PIN)));
    assert.deepEqual([...Deno.readDirSync(tmp)].map((e) => e.name), [], "no spool left behind");
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(tmp, { recursive: true });
  }
});
