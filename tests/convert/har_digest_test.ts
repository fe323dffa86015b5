/**
 * `convert har` on a web UI behind HTTP Digest auth (RFC 7616), as calibre's content server is
 * with `--enable-auth` over plain HTTP: the browser answered the server's 401 challenge itself,
 * so every recorded request carries `Authorization: Digest username="…", nonce="…", nc=…,
 * response="…"`. Each header is an answer to one nonce the server issued, computed from the
 * password the user typed into the browser's prompt; a later instance (or the same one later)
 * refuses it. The conversion asked for each whole header as `API_TOKEN`, `API_TOKEN_2`, …, values
 * nobody can set. Evidence, whatever the names: a Digest answer is the user's name and password
 * under the server's challenge, so the step's `auth: {digest: …}` answers the live challenge with
 * the user as recorded and one `DIGEST_PASSWORD` asked for; no recorded hash, nonce or header is
 * written.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";
import { harOf } from "../support/har_records.ts";

const PASSWORD = "Quill-Harbor-77";
const REALM = "shelf";
const md5 = (s: string) => createHash("md5").update(s).digest("hex");

/** The header a browser sends for `uri` under the recorded nonce (count `nc`). */
function answer(user: string, method: string, uri: string, nc: number, userField?: string) {
  const nonce = "1f2e3d4c5b6a:recorded";
  const cnonce = "b32400753446d182";
  const count = nc.toString(16).padStart(8, "0");
  const ha1 = md5(`${user}:${REALM}:${PASSWORD}`);
  const response = md5(`${ha1}:${nonce}:${count}:${cnonce}:auth:${md5(`${method}:${uri}`)}`);
  return `Digest ${userField ?? `username="${user}"`}, realm="${REALM}", nonce="${nonce}", ` +
    `uri="${uri}", algorithm=MD5, response="${response}", qop=auth, nc=${count}, ` +
    `cnonce="${cnonce}"`;
}

/** A stand-in that answers only Digest answers to nonces it issued itself, as calibre does. */
function standIn(user: string) {
  const issued = new Set<string>();
  let books = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const fields = new Map(
      [...(req.headers.get("authorization") ?? "").matchAll(/(\w+)="?([^",]*)"?/g)].map((
        m,
      ) => [m[1], m[2]]),
    );
    const nonce = fields.get("nonce") ?? "";
    const ha1 = md5(`${user}:${REALM}:${PASSWORD}`);
    const ha2 = md5(`${req.method}:${url.pathname}${url.search}`);
    const expected = md5(
      `${ha1}:${nonce}:${fields.get("nc")}:${fields.get("cnonce")}:auth:${ha2}`,
    );
    if (!issued.has(nonce) || fields.get("response") !== expected) {
      const fresh = crypto.randomUUID();
      issued.add(fresh);
      const challenge = `Digest realm="${REALM}", nonce="${fresh}", algorithm="MD5", qop="auth"`;
      return new Response("", { status: 401, headers: { "www-authenticate": challenge } });
    }
    if (req.method === "POST") {
      await req.text();
      return Response.json({ id: ++books, title: "Harbour Ledger" });
    }
    return Response.json({ user });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** A journey: read the library, add a book, read it again (nonce counts 1 to 3). */
function recording(user: string, userField?: string): string {
  const at = "http://127.0.0.1:8080";
  const auth = (method: string, uri: string, nc: number): [string, string] => [
    "Authorization",
    answer(user, method, uri, nc, userField),
  ];
  return harOf([
    {
      url: `${at}/api/library?1795835892422`,
      headers: [auth("GET", "/api/library?1795835892422", 1)],
      json: { user },
    },
    {
      method: "POST",
      url: `${at}/api/books`,
      headers: [auth("POST", "/api/books", 2)],
      body: JSON.stringify({ title: "Harbour Ledger" }),
      json: { id: 1, title: "Harbour Ledger" },
    },
    { url: `${at}/api/library`, headers: [auth("GET", "/api/library", 3)], json: { user } },
  ]);
}

for (
  const [label, user, userField] of [
    ["a user name", "ada", undefined],
    ["a user name RFC 8187 encodes", "zoë", `username*=UTF-8''zo%C3%AB`],
  ] as const
) {
  Deno.test(`convert har: Digest answers (${label}) become the step's digest auth, only the password is asked, and the flow passes twice`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-digest-" });
    const app = standIn(user);
    try {
      const { converted, flow } = await convertHar(dir, recording(user, userField));
      assert.match(converted.stderr, /Set before running: DIGEST_PASSWORD\./, converted.stderr);
      assert.ok(!/authorization:|API_TOKEN|nonce|response=/i.test(flow), flow);
      const auth = new RegExp(
        `digest:\\n\\s+username: ${user}\\n\\s+password: \\$\\{ENV\\.DIGEST_PASSWORD\\}`,
        "g",
      );
      assert.equal(flow.match(auth)?.length, 3, flow);
      const env = { BASE_URL: app.origin, DIGEST_PASSWORD: PASSWORD };
      for (const n of [1, 2]) {
        const run = await runCli(["run", `${dir}/flow.yaml`], { env });
        assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
        assert.ok(!run.stdout.includes(PASSWORD), run.stdout);
      }
    } finally {
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
