/**
 * `convertCurl`: a body typed after `-d`, `--data-binary` or `--data-raw`
 * goes out as typed. A time-series database's write guide sends line
 * protocol (`--data-binary 'cpu,host=a value=0.64 1434055562000000000'`, one
 * point a line) with curl's default form type; the flow wrote it as `form:`
 * (a field `cpu,host` holding `a value=0.64 …`), which the runner encodes
 * again (`cpu%2Chost=a+value%3D0.64+…`), and the server refused every write
 * 400 "unable to parse". A name holding a space, a value holding a line break
 * or a tab, or a space beside another `=`, is no form's: such a body is sent as
 * typed, with the type curl sends. A clean form (`q=a+b&n=1`) stays `form:`,
 * and so does a hand-typed one whose values hold spaces (`name=Jenny Rosen`).
 * Run here against a server that accepts only the bytes curl sends.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** Bodies typed in the docs' commands, each with the option that sends it. */
const TYPED: [string, string][] = [
  ["--data-binary", "cpu_load_short,host=server01,region=us-west value=0.64 1434055562000000000"],
  [
    "--data-binary",
    "cpu,host=a value=0.67\ncpu,host=b,region=us-west value=0.55 1422568543702900257",
  ],
  ["-d", "tobeornottobe booleanonly=true"],
  ["--data-raw", "mem,host=host1 used_percent=23.43\tx=1"],
];

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
const docs = (origin: string) =>
  TYPED.map(([option, body]) => `curl -XPOST '${origin}/write?db=mydb' ${option} ${quote(body)}`)
    .join("\n\n") + "\n";

Deno.test("a typed body holding a space or a line break is the step's body, not a form", () => {
  const { yaml } = convertCurl(docs("http://a.test"));
  assert.ok(!/^\s+form:/m.test(yaml), yaml);
  assert.match(
    yaml,
    /body: cpu_load_short,host=server01,region=us-west value=0\.64 1434055562000000000$/m,
    yaml,
  );
  assert.match(yaml, /content-type: application\/x-www-form-urlencoded/, yaml);
});

Deno.test("a clean form, or one whose values hold spaces, stays form: fields", () => {
  const { yaml } = convertCurl("curl http://a.test/search -d 'q=a+b&n=1'\n");
  assert.match(yaml, /form:\n\s+q: a b\n\s+"n": "1"/, yaml);
  const typed = convertCurl("curl http://a.test/users -d 'name=Jenny Rosen' -d city=Oslo\n");
  assert.match(typed.yaml, /form:\n\s+name: Jenny Rosen\n\s+city: Oslo/, typed.yaml);
});

Deno.test("run against a server accepting only the bytes curl sends", async () => {
  const got: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const body = await req.text();
      got.push(body);
      const typed = TYPED.some(([, b]) => b === body);
      const form = req.headers.get("content-type") === "application/x-www-form-urlencoded";
      return typed && form
        ? new Response(null, { status: 204 })
        : Response.json({ error: `unable to parse '${body}'` }, { status: 400 });
    },
  );
  await withCurlFlow(docs(`http://127.0.0.1:${server.addr.port}`), async ({ runFlow }) => {
    const out = await runFlow();
    assert.equal(out.code, 0, out.stdout + out.stderr);
    assert.deepEqual(got, TYPED.map(([, b]) => b));
  });
});
