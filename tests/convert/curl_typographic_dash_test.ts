/**
 * `convert curl` on a page whose typesetting turned curl's dashes into typographic ones: a blog or
 * a word processor writes `--data` as `–data` (an en dash) or `—data` (an em dash), and `-X` as
 * `–X`. curl reads such a word as a URL (`Could not resolve host: xn--x-5gn`), and so did the
 * converter: one command became six GET steps to hosts named after the options. The page meant
 * the option: a word that starts with one or two typographic dashes (en, em, minus, hyphen) and
 * goes on with curl's long option name, or a short option curl has, is that option, with a note
 * saying so. Run against a server started here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** Each typographic dash a page may hold where curl's `-` or `--` stood. */
const DASHES = { en: "\u2013", em: "\u2014", minus: "\u2212", hyphen: "\u2010" };

function page(origin: string, dash: string): string {
  return [
    `curl ${dash}X POST ${origin}/items ${dash}H "Content-Type: application/json" ${dash}${dash}data '{"name": "kelp"}'`,
    `curl ${dash}sS ${dash}${dash}request PUT ${origin}/items/1 ${dash}d '{"name": "wrack"}' ${dash}${dash}header "Content-Type: application/json"`,
    "",
  ].join("\n");
}

for (const [name, dash] of Object.entries(DASHES)) {
  Deno.test(`a ${name} dash before an option is the option the page meant, and said`, () => {
    const { yaml, summary } = convertCurl(page("http://127.0.0.1:9", dash));
    assert.equal(summary.steps, 2, yaml);
    assert.match(yaml, /method: POST/, yaml);
    assert.match(yaml, /method: PUT/, yaml);
    assert.doesNotMatch(yaml, /xn--/, yaml);
    assert.match(summary.notes.join("\n"), /"\S+X" is written with a typographic dash.*"-X"/);
    assert.match(
      summary.notes.join("\n"),
      /"\S+data" is written with a typographic dash.*"--data"/,
    );
  });
}

Deno.test("a word that only starts with a dash and names no option is left as it is", () => {
  const { yaml, summary } = convertCurl('curl http://127.0.0.1:9/items -d "note=\u2013 plain"\n');
  assert.match(yaml, /– plain/, yaml);
  assert.doesNotMatch(summary.notes.join("\n"), /typographic dash/);
});

Deno.test("run against a server: each page's commands send the method, header and body meant", async () => {
  const seen: string[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    seen.push(
      `${req.method} ${new URL(req.url).pathname} ${req.headers.get("content-type")} ${body}`,
    );
    return Response.json({ ok: true });
  });
  for (const dash of Object.values(DASHES)) {
    await withCurlFlow(
      page(`http://127.0.0.1:${s.addr.port}`, dash),
      async ({ runFlow, converted }) => {
        const run = await runFlow();
        assert.equal(run.code, 0, `${converted.stderr}\n${run.stdout}${run.stderr}`);
      },
    );
  }
  assert.deepEqual(
    seen,
    Array(4).fill([
      'POST /items application/json {"name":"kelp"}',
      'PUT /items/1 application/json {"name":"wrack"}',
    ]).flat(),
  );
});
