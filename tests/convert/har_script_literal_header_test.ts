/**
 * `convert har` on a header named like a credential whose value the app's
 * own script writes as a literal. Seen on rspamd's web UI
 * (docs/real-servers-har.md): its scan form's "pass all filters" checkbox
 * makes the script send `Pass: all` (`headers.Pass = "all"` in its
 * `upload.js`), beside the typed password in `Password:`. `Pass` reads as a
 * password's name, so the summary asked for `PASS` as a second secret, and a
 * user who had no such thing to give could not run the flow as printed.
 * Evidence decides, not the name: a value the app's script (served by the
 * recorded origin and kept in the recording) assigns to that very name is the
 * same for every user, so it is sent as recorded. The typed password is still
 * asked, and so is a value the script does not write, or one shaped like a
 * key (an app's embedded key stays a secret, never written).
 *
 * The stand-in runs on 127.0.0.1 and wants both headers.
 */
import assert from "node:assert/strict";
import { convertHarText, runCli } from "../support/cli.ts";

const ORIGIN = "http://127.0.0.1:11334";
const PASSWORD = "harbour-Lantern-42";

/** One entry: `text` answered as `mime`. */
function entry(
  i: number,
  method: string,
  path: string,
  headers: [string, string][],
  mime: string,
  text: string,
) {
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    time: 1,
    request: {
      method,
      url: `${ORIGIN}${path}`,
      headers: headers.map(([name, value]) => ({ name, value })),
      ...(method === "POST"
        ? { postData: { mimeType: "text/plain", text: "Subject: hi\n\nhello\n" } }
        : {}),
    },
    response: { status: 200, headers: [], content: { mimeType: mime, text } },
  };
}

/** A page's script, then a scan sending `sent` beside the typed password. */
function recording(script: string, sent: [string, string]): string {
  return JSON.stringify({
    log: {
      entries: [
        entry(0, "GET", "/js/app/upload.js", [], "application/javascript", script),
        entry(
          1,
          "POST",
          "/checkv2",
          [["Password", PASSWORD], sent],
          "application/json",
          '{"score":1.5}',
        ),
      ],
    },
  });
}

const SCRIPT =
  'define([], function () { if ($("#pass-all").prop("checked")) headers.Pass = "all";\n' +
  'var o = {"X-Auth-Mode": "session", apiKey: "AIzaSyD3v7cX9bq2LmR8tK1wP0sE4uY6hN5jQfA"}; });';

/** The flow `convert har` writes for `har`, and its summary. */
const converted = convertHarText;

/** Where each header the script writes goes: sent as recorded, nothing but the password asked. */
const written: [string, string][] = [["Pass", "all"], ["X-Auth-Mode", "session"]];

for (const [name, value] of written) {
  Deno.test(`convert har: ${name}: ${value}, written by the app's script, is sent as recorded; only the password is asked`, async () => {
    const { flow, summary } = await converted(recording(SCRIPT, [name, value]));
    assert.match(flow, new RegExp(`${name.toLowerCase()}: ${value}\\n`), flow);
    assert.match(summary, /Set before running: PASSWORD\.\n/, summary);
    assert.ok(!flow.includes(PASSWORD), flow);
  });
}

Deno.test("convert har: with two recordings, the first one's script still says Pass: all is the client's", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.har`, recording(SCRIPT, ["Pass", "all"]));
    await Deno.writeTextFile(`${dir}/b.har`, recording(SCRIPT, ["Pass", "all"]));
    const out = await runCli(["convert", "har", `${dir}/a.har`, `${dir}/b.har`]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /pass: all\n/, out.stdout);
    assert.match(out.stderr, /Set before running: PASSWORD\.\n/, out.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a credential-named header the script does not write is still asked", async () => {
  const { flow, summary } = await converted(recording(SCRIPT, ["Pass", "open-sesame"]));
  assert.match(flow, /pass: \$\{ENV\.PASS\}/, flow);
  assert.match(summary, /PASS\b/, summary);
});

Deno.test("convert har: a key the script holds is still a secret, never written", async () => {
  const key = "AIzaSyD3v7cX9bq2LmR8tK1wP0sE4uY6hN5jQfA";
  const { flow } = await converted(recording(SCRIPT, ["X-Api-Key", key]));
  assert.ok(!flow.includes(key), flow);
  assert.match(flow, /x-api-key: \$\{ENV\.API_KEY\}/, flow);
});

Deno.test("convert har: the scan runs on a stand-in that wants the script's header and the password", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.text();
    const ok = req.headers.get("pass") === "all" && req.headers.get("password") === PASSWORD;
    return Response.json(ok ? { score: 1.5 } : { error: "Unauthorized" }, {
      status: ok ? 200 : 403,
    });
  });
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/in.har`, recording(SCRIPT, ["Pass", "all"]));
    const out = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/f.yaml`]);
    assert.equal(out.code, 0, out.stderr);
    const run = await runCli(["run", `${dir}/f.yaml`], {
      env: { BASE_URL: `http://127.0.0.1:${server.addr.port}`, PASSWORD },
    });
    assert.equal(run.code, 0, run.stdout);
    assert.ok(!run.stdout.includes(PASSWORD), run.stdout);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
