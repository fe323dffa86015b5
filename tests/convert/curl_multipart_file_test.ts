/**
 * `convert curl`: a multipart body the command sends from a file. A spam
 * filter's protocol page (measured by hand) writes the parts into a file and
 * sends it with `-H "Content-Type: multipart/form-data; boundary=$BOUNDARY"
 * --data-binary "@request.txt"`. The stage shared with `convert har` took
 * the typed multipart type with no body on the record for a browser's
 * recording that kept none of an upload, and gave the step a placeholder
 * `multipart:` beside its `body_file`: the flow did not load ("both give the
 * request a body") and nothing of the page was sent. A body curl reads from
 * a file is that file's bytes, under the type the command typed, boundary
 * and all, however the command names it (`--data-binary @F`, `-d @F`,
 * `--data @F`, `@-` with `< F`, a file still to be made) and whatever the
 * multipart type. Run against a server started here, which reads the parts
 * with the typed boundary.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** The parts as the page writes them into the file, CRLF as multipart wants. */
const PARTS = [
  "--RspamdBoundary42",
  'Content-Disposition: form-data; name="metadata"',
  "Content-Type: application/json",
  "",
  '{"from":"sender@example.com"}',
  "--RspamdBoundary42",
  'Content-Disposition: form-data; name="message"',
  "",
  "Subject: Test",
  "--RspamdBoundary42--",
  "",
].join("\r\n");

/** The ways a command sends the file, each with the type it types. */
const SPELLINGS: Record<string, string> = {
  "--data-binary @F": "--data-binary @request.txt",
  '--data-binary "@F"': '--data-binary "@request.txt"',
  "--data-binary @- < F": "--data-binary @- < request.txt",
};

function command(port: number, send: string, type = "multipart/form-data"): string {
  return `curl -X POST http://127.0.0.1:${port}/checkv3 \\\n  -H "Content-Type: ${type}; boundary=RspamdBoundary42" \\\n  ${send}\n`;
}

/** Converts `docs` in a folder holding `request.txt` (unless `withFile` is false); the flow's text and the run. */
async function convertAndRun(docs: string, withFile = true) {
  const dir = await Deno.makeTempDir();
  try {
    if (withFile) await Deno.writeTextFile(`${dir}/request.txt`, PARTS);
    await Deno.writeTextFile(`${dir}/docs.sh`, docs);
    const converted = await runCli(["convert", "curl", "docs.sh", "-o", "out/flow.yaml"], {
      cwd: dir,
    });
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/out/flow.yaml`);
    const validated = await runCli(["validate", "out/flow.yaml"], { cwd: dir });
    const run = await runCli(["run", "out/flow.yaml"], { cwd: dir });
    return { flow, validated, run, converted };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a multipart body sent from a file is the file, under the typed type", async () => {
  const seen: string[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const type = req.headers.get("content-type") ?? "";
    try {
      const form = await req.formData();
      seen.push(`${type.split(";")[0]} ${form.get("metadata")} ${form.get("message")}`);
      return Response.json({ ok: true });
    } catch {
      seen.push(`unread ${type}`);
      return Response.json({ error: "invalid command" }, { status: 500 });
    }
  });
  for (const [spelling, send] of Object.entries(SPELLINGS)) {
    const { flow, validated, run, converted } = await convertAndRun(command(s.addr.port, send));
    assert.equal(validated.code, 0, `${spelling}\n${validated.stdout}${validated.stderr}\n${flow}`);
    assert.doesNotMatch(flow, /multipart:|uploads\//, spelling);
    assert.equal(run.code, 0, `${spelling}\n${converted.stderr}\n${run.stdout}${run.stderr}`);
  }
  const expected = 'multipart/form-data {"from":"sender@example.com"} Subject: Test';
  assert.deepEqual(seen, Object.keys(SPELLINGS).map(() => expected));
});

Deno.test("every multipart type typed over a file keeps the file as the body", async () => {
  for (const type of ["multipart/form-data", "multipart/related", "multipart/mixed"]) {
    const { flow, validated } = await convertAndRun(command(9, "--data-binary @request.txt", type));
    assert.equal(validated.code, 0, `${type}\n${validated.stdout}${validated.stderr}\n${flow}`);
    assert.match(flow, /body_file: "?(?:\.\.\/)?request\.txt/, flow);
    assert.match(flow, new RegExp(`content-type: "?${type}; boundary=RspamdBoundary42`), flow);
  }
});

Deno.test("a multipart file still to be made gets its placeholder and a flow that loads", async () => {
  for (const send of ["--data-binary @request.txt", "-d @request.txt", "--data @request.txt"]) {
    const { flow, validated } = await convertAndRun(command(9, send), false);
    assert.equal(validated.code, 0, `${send}\n${validated.stdout}${validated.stderr}\n${flow}`);
    assert.doesNotMatch(flow, /multipart:|uploads\//, send);
    assert.match(flow, /body_file: request\.txt/, flow);
  }
});
