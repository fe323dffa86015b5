/**
 * `convert curl`: a body compressed by a pipe. A push gateway's README
 * pushes `echo "…" | gzip | curl -H 'Content-Encoding: gzip' --data-binary
 * @- …`; the converter read only the command right before curl (`gzip`,
 * which writes nothing of its own), so the step sent no body with the gzip
 * header: the gateway answered 400. A pipeline whose first command writes
 * its own words (`echo`, `printf`, `cat` with its here-document) through
 * filters the converter can run (`gzip`, encoders, `tr`) is run when
 * converting: text stays the step's body, bytes that are no text (gzip's)
 * go to a file written beside the flow, which the step sends as it is. A
 * pipeline it cannot run is named, with the programs and the line. Run
 * against a server the test starts that decompresses what it receives.
 */
import assert from "node:assert/strict";
import { convertCurl, formatCurlSummary } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const LINE = 'some_metric{label="val1"} 42';

/** Converts `text` in a scratch folder, runs the flow against a server that gunzips; what it got. */
async function pushed(
  text: (origin: string) => string,
): Promise<{ got: string[]; summary: string }> {
  const got: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const gzip = req.headers.get("content-encoding") === "gzip";
      const body = gzip && req.body
        ? await new Response(req.body.pipeThrough(new DecompressionStream("gzip"))).text()
        : await req.text();
      got.push(`${gzip ? "gzip" : "plain"} ${body}`);
      return new Response(null, { status: gzip && body !== "" ? 200 : 400 });
    },
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return await withCurlFlow(text(origin), async ({ converted, runFlow }) => {
    const run = await runFlow({ BASE_URL: origin });
    assert.equal(run.code, 0, run.stdout + run.stderr + converted.stderr);
    return { got, summary: converted.stderr };
  });
}

Deno.test("a body gzipped by a pipe reaches the server as the shell sends it", async () => {
  const cases: [(origin: string) => string, string][] = [
    [
      (o) => `echo '${LINE}' | gzip | curl -H 'Content-Encoding: gzip' --data-binary @- ${o}/m\n`,
      `${LINE}\n`,
    ],
    [
      (o) =>
        `printf '%s\\n' '${LINE}' | gzip -c | curl -H 'Content-Encoding: gzip' --data-binary @- ${o}/m\n`,
      `${LINE}\n`,
    ],
    [
      (o) =>
        `cat <<EOF | gzip -9 | curl -H 'Content-Encoding: gzip' --data-binary @- ${o}/m\n${LINE}\nx 1\nEOF\n`,
      `${LINE}\nx 1\n`,
    ],
    [
      (o) => `gzip <<< '${LINE}' | curl -H 'Content-Encoding: gzip' --data-binary @- ${o}/m\n`,
      `${LINE}\n`,
    ],
  ];
  for (const [text, body] of cases) {
    const { got, summary } = await pushed(text);
    assert.deepEqual(got, [`gzip ${body}`], summary);
    assert.match(summary, /gzip.*written beside the flow/s, summary);
  }
});

Deno.test("a pipeline the converter cannot run is named with its programs and line", () => {
  const { yaml, summary } = convertCurl(
    `curl http://localhost:9091/a\njq -n '{a: 1}' | gzip | curl -H 'Content-Encoding: gzip' --data-binary @- http://localhost:9091/m\n`,
  );
  assert.equal(summary.steps, 2, yaml);
  const text = formatCurlSummary(summary);
  assert.match(text, /line 2.*jq \| gzip.*not carried/s, text);
});

Deno.test("without a folder to write into, gzipped bytes are said to be left out", () => {
  const { summary } = convertCurl(
    `echo '${LINE}' | gzip | curl -H 'Content-Encoding: gzip' --data-binary @- http://localhost:9091/m\n`,
  );
  assert.match(formatCurlSummary(summary), /gzip.*not carried/s);
  assert.deepEqual(summary.skipped, []);
});
