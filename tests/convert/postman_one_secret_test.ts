/**
 * A credential the collection writes out is kept out of the flow everywhere it is sent. A Basic
 * auth's password written in the collection (`secret-Pw12`) is asked for as `BASIC_PASSWORD`, and a
 * key in an `X-Api-Key` header as `X_API_KEY`; the same values written again in a login's body and
 * in a query parameter were copied into the flow as written, so the secret the summary says is not
 * kept stood in the flow file in clear, and a user who set the variable to another password sent
 * two different ones. Each place now reads the one variable (`password: ${ENV.BASIC_PASSWORD}`,
 * `?api_key=${ENV.X_API_KEY}`), sent as Newman sends the collection once it is set. A value that is
 * an ordinary word is left where it stands as data (a role `admin` beside a password `admin`).
 */
import assert from "node:assert/strict";
import { convertedInto, runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const PASSWORD = "secret-Pw12";
const KEY = "ak_9f8e7d6c5b4a39281706";

function collection(base: string) {
  return {
    info: { name: "One secret", schema: V21 },
    item: [
      {
        name: "me",
        request: {
          method: "GET",
          url: `${base}/me`,
          auth: {
            type: "basic",
            basic: [{ key: "username", value: "ann" }, { key: "password", value: PASSWORD }],
          },
          header: [{ key: "X-Api-Key", value: KEY }],
        },
      },
      {
        name: "login",
        request: {
          method: "POST",
          url: `${base}/login?api_key=${KEY}&role=admin`,
          body: {
            mode: "raw",
            raw: JSON.stringify({ username: "ann", password: PASSWORD, note: `key ${KEY}` }),
            options: { raw: { language: "json" } },
          },
        },
      },
    ],
  };
}

Deno.test("postman written credentials: one value is one variable wherever the collection sends it", async () => {
  const seen: Record<string, unknown> = {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen[url.pathname] = url.pathname === "/me"
      ? [req.headers.get("authorization"), req.headers.get("x-api-key")]
      : [url.search, await req.json()];
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files, text, flows } = convertedInto(
      collection(`http://127.0.0.1:${server.addr.port}`),
      dir,
    );
    assert.doesNotMatch(text + flows, new RegExp(`${PASSWORD}|${KEY}`), flows);
    assert.match(flows, /password: \$\{ENV\.BASIC_PASSWORD\}/, flows);
    assert.match(flows, /api_key=\$\{ENV\.X_API_KEY\}&role=admin/, flows);
    const { run, flow } = await runConverted(files, dir, {
      BASIC_PASSWORD: PASSWORD,
      X_API_KEY: KEY,
      N_127_0_0_1_URL: `http://127.0.0.1:${server.addr.port}`,
    });
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    // What Newman sends for the collection as written.
    assert.deepEqual(seen, {
      "/me": [`Basic ${btoa(`ann:${PASSWORD}`)}`, KEY],
      "/login": [`?api_key=${KEY}&role=admin`, {
        username: "ann",
        password: PASSWORD,
        note: `key ${KEY}`,
      }],
    });
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
