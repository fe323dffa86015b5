/**
 * Text a script joins with the time (`"c" + (+new Date())`, `` `c${+new Date()}` ``,
 * `"c" + Date.now()`) holds the time in milliseconds when Newman sends it. It was translated as
 * 13 random digits, a number of the same shape but no time (years away), so a server that reads
 * the digits as the moment the record was made, or a check that compares them with the clock,
 * saw another value than Newman's. It is now the flow's `${NOW.UNIX_MS}`, made once per flow run
 * like any value a script makes; two variables the same text would make in one flow run (the
 * same prefix, two users) are a second apart, as Newman's are a request or more apart.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman time joined into text: the digits are the clock's milliseconds, and two names made alike differ", async () => {
  const names: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { name } = await req.json();
    const ms = Number(String(name).replace(/^[a-z]+/, ""));
    // The server reads the digits as the moment of the request, as Newman sends them.
    const now = Math.abs(Date.now() - ms) < 60_000 && !names.includes(name);
    names.push(name);
    return Response.json({ name }, { status: now ? 201 : 400 });
  });
  const create = (title: string, made: string) => ({
    name: title,
    event: [
      { listen: "prerequest", script: { exec: [`pm.environment.set('${title}', ${made});`] } },
      {
        listen: "test",
        script: { exec: ["pm.test('201', () => pm.response.to.have.status(201));"] },
      },
    ],
    request: {
      method: "POST",
      url: "{{base}}/users",
      header: [{ key: "Content-Type", value: "application/json" }],
      body: {
        mode: "raw",
        raw: `{"name": "{{${title}}}"}`,
        options: { raw: { language: "json" } },
      },
    },
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Clock text", schema: V21 },
      variable: [{ key: "base", value: `http://127.0.0.1:${server.addr.port}` }],
      item: [
        create("plus", '"c" + (+new Date())'),
        create("template", "`c${+new Date()}`"),
        create("now", '"c" + Date.now()'),
        create("getTime", '"u" + new Date().getTime()'),
      ],
    }));
    const { run, flow } = await runConverted(files, dir);
    assert.doesNotMatch(flow.text, /RANDOM|# untranslated/, flow.text);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.equal(names.length, 4);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
