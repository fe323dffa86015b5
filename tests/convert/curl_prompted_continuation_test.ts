/**
 * `convert curl`: a prompted command whose `\` the docs lost. A metrics
 * server's events page prints `$ curl -X POST "http://graphite/events/"`
 * and, indented under it, `-d '{ "what": "Event - deploy", … }'` over two
 * lines, no `\` between. Under a `$ ` prompt a line right under an ended
 * command was read as what the command printed and blanked, so the event
 * went out with no body (the server's 400 or, worse, an empty event) and
 * nothing said so. A line that starts with one of curl's own options right
 * under a prompted curl command carries it on, as it does without a prompt
 * (`curl_lost_continuation.ts`); what another program printed (`ls -l`'s
 * `-rw-r--r--`), a number (`-1`) and what comes after a printed line stay
 * printed. Run against a server started here, which refuses an event
 * without its body.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** The page's shape: an indented code block, a `$ ` prompt, the data on the lines under it. */
const page = (host: string, prompt: string, option: string) =>
  [
    "Adding Events",
    "-------------",
    "",
    ".. code-block:: none",
    "",
    `    ${prompt}curl -X POST "http://${host}/events/" `,
    `        ${option} '{ "what": "Event - deploy", "tags": ["deploy"], "when": 1467844481,`,
    '        "data": "deploy of master branch" }\'',
    " ",
    "``when`` is an optional key.",
    "",
    ".. code-block:: none",
    "",
    `    ${prompt}curl -s "http://${host}/events/get_data?tags=deploy"`,
    "    -1",
    "",
  ].join("\n");

const OPTIONS = ["-d", "--data", "--data-raw", "--data-binary", "--json"];

Deno.test("an option line under a prompted curl command is its body, every spelling", () => {
  for (const prompt of ["$ ", "", "~ $ "]) {
    for (const option of OPTIONS) {
      const { yaml, summary } = convertCurl(page("a.test", prompt, option));
      assert.equal(summary.steps, 2, `${prompt}${option}\n${yaml}`);
      assert.match(yaml, /what: Event - deploy/, `${prompt}${option}\n${yaml}`);
      assert.match(yaml, /data: deploy of master branch/, `${prompt}${option}\n${yaml}`);
    }
  }
  const headers = "$ curl http://a.test/buckets\n  -H 'X-Org: docs'\n\n";
  assert.match(convertCurl(headers).yaml, /x-org: docs/);
});

Deno.test("what another program or the answer printed stays printed", () => {
  const listing = "$ ls -l\n-rw-r--r-- 1 me me 10 notes.txt\n$ curl http://a.test/n\n";
  const { yaml, summary } = convertCurl(listing);
  assert.equal(summary.steps, 1, yaml);
  assert.ok(!/range|-rw/.test(yaml), yaml);
  // An answer's line first, then an option line: printed by the command, not part of it.
  const printed = '$ curl http://a.test/n\n{"ok": true}\n-H "X: 1"\n';
  assert.ok(!/\bx: "?1/.test(convertCurl(printed).yaml), convertCurl(printed).yaml);
});

Deno.test("run against a server: the event goes out with its body", async () => {
  const events: unknown[] = [];
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/events/" && req.method === "POST") {
      const text = await req.text();
      if (!text.startsWith("{")) return new Response("no event in the body", { status: 400 });
      events.push(JSON.parse(text));
      return new Response(null, { status: 200 });
    }
    if (path === "/events/get_data") return Response.json(events);
    return new Response("no route", { status: 404 });
  });
  await withCurlFlow(page(`127.0.0.1:${s.addr.port}`, "$ ", "-d"), async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
  });
  assert.equal(events.length, 1);
  assert.equal((events[0] as { what: string }).what, "Event - deploy");
});
