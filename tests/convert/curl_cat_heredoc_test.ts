/**
 * `convert curl`: a here-document piped through `cat`. A push gateway's
 * README pushes several metrics with `cat <<EOF | curl --data-binary @- …`
 * and the lines up to `EOF`; the converter read `echo`, `printf` and
 * `cat FILE` before a pipe, not `cat` reading its own standard input, so the
 * step sent no body ("Data read from standard input (@-) is not carried")
 * and the gateway accepted the empty push: green, nothing pushed. `cat` with
 * no file (or `-`) writes what it reads: its here-document or here-string.
 * Run against a server that keeps what it receives.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const METRICS = '# TYPE some_metric counter\nsome_metric{label="val1"} 42\n';

Deno.test("cat's here-document or here-string before a pipe is curl's standard input", () => {
  const texts = [
    `cat <<EOF | curl --data-binary @- http://localhost:9091/metrics/job/a\n${METRICS}EOF\n`,
    `cat <<'EOF' | curl --data-binary @- http://localhost:9091/metrics/job/a\n${METRICS}EOF\n`,
    `cat - <<EOF | curl --data-binary @- http://localhost:9091/metrics/job/a\n${METRICS}EOF\n`,
    `cat <<< 'some_metric 1' | curl --data-binary @- http://localhost:9091/metrics/job/a\n`,
    // A prompt before the command that feeds the pipe is no word of it.
    `$ cat <<EOF | curl --data-binary @- http://localhost:9091/metrics/job/a\n${METRICS}EOF\n`,
    `$ echo 'some_metric 1' | curl --data-binary @- http://localhost:9091/metrics/job/a\n`,
  ];
  for (const text of texts) {
    const { yaml, summary } = convertCurl(text);
    assert.equal(summary.steps, 1, yaml);
    assert.match(yaml, /some_metric/, text);
    assert.ok(!summary.notes.some((n) => /not carried/.test(n)), summary.notes.join("\n"));
  }
});

Deno.test("the pushed lines reach the server as curl sends them", async () => {
  const got: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      got.push(await req.text());
      return new Response(null, { status: 200 });
    },
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const docs = `cat <<EOF | curl --data-binary @- ${origin}/metrics/job/some_job\n${METRICS}EOF\n`;
  await withCurlFlow(docs, async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(got, [METRICS]);
  });
});
