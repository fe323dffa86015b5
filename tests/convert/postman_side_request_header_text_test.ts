/**
 * `pm.sendRequest({ url, method, header: 'Content-Type:application/json', body })`: the
 * headers of the request a pre-request script sends first, given as text (`Name:value`, a
 * line each), as Postman's own documentation writes them and collections copy it. Postman
 * parses the text into headers (`Header.parse`); the converter read only an object or a list
 * of `{ key, value }`, so the login was not sent, its token never set, and every request
 * after it sent `{{token}}` as written. Now the text is parsed as Postman parses it, and a
 * list may hold such lines too. A small server answers the login only with both headers.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** A pre-request login whose `header` is `spelled`, then a request sending its token. */
function collection(spelled: string): string {
  const pre = [
    "const baseURL = pm.environment.get('baseURL');",
    "const login = {",
    "  url: baseURL + '/auth',",
    "  method: 'POST',",
    `  header: ${spelled},`,
    "  body: { mode: 'raw', raw: JSON.stringify({ username: 'admin' }) }",
    "};",
    "pm.sendRequest(login, function (err, res) {",
    "  pm.collectionVariables.set('token', res.json().token);",
    "});",
  ];
  return JSON.stringify({
    info: { name: "Header text", schema: V21 },
    item: [{
      name: "Booking",
      event: [{ listen: "prerequest", script: { exec: pre } }],
      item: [{
        name: "Delete",
        event: [{
          listen: "test",
          script: { exec: ["pm.test('deleted', () => pm.response.to.have.status(201));"] },
        }],
        request: {
          method: "DELETE",
          url: "{{baseURL}}/booking/1",
          header: [{ key: "Cookie", value: "token={{token}}" }],
        },
      }],
    }],
  });
}

Deno.test("postman sendRequest: a header given as text lines is sent, as Postman parses it", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    if (path === "/auth") {
      const json = req.headers.get("content-type") === "application/json";
      const client = req.headers.get("x-client") === "web:2";
      return json && client
        ? Response.json({ token: "t-42" })
        : Response.json({ reason: "headers" }, { status: 400 });
    }
    const ok = req.headers.get("cookie") === "token=t-42";
    return new Response(ok ? "Created" : "Forbidden", { status: ok ? 201 : 403 });
  });
  const dir = await Deno.makeTempDir();
  const environment = JSON.stringify({
    name: "local",
    values: [{
      key: "baseURL",
      value: `http://127.0.0.1:${server.addr.port}`,
      enabled: true,
    }],
  });
  try {
    const spellings = [
      // Postman's documented form, and several lines (a value may hold a colon).
      `'Content-Type:application/json\\nX-Client: web:2'`,
      // A list of such lines, as `Header` reads a single string.
      `['Content-Type: application/json', 'X-Client:web:2']`,
    ];
    for (const spelled of spellings) {
      seen.length = 0;
      const { files } = convertPostman(collection(spelled), environment);
      const flow = files.find((f) => f.path.endsWith(".yaml"))!;
      assert.doesNotMatch(flow.text, /untranslated, from the pre-request/, flow.text);
      for (const f of files) await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
      // As the summary prints it: the environment file gives BASE_URL.
      const env = files.find((f) => f.path.endsWith(".env"))!;
      const run = await runCli(["run", `${dir}/${flow.path}`, "--env-file", `${dir}/${env.path}`]);
      assert.equal(run.code, 0, spelled + run.stdout + run.stderr + flow.text);
      assert.deepEqual(seen, ["POST /auth", "DELETE /booking/1"], spelled);
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
