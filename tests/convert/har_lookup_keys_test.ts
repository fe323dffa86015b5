/**
 * `convert har` on a field named like a key that holds no credential, as
 * Syncthing's AngularJS GUI sends (tests/real/syncthing_har_test.ts): every
 * object it writes back carries `$$hashKey: "object:440"`, the framework's
 * own counter. The name ends in `Key`, so each became a variable to set by
 * hand (nine for one recording), though the value is a word and a count no
 * server issued and no user typed. An API key is random by construction;
 * a lookup key (a hash key, a sort key) is a word or a word and a number.
 * Widened to the class: `sortKey: name` and `i18nKey: menu.title` stay as
 * recorded; an `apiKey` of random text and a `password` of a word and a
 * number stay variables.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const API_KEY = "k3y-9f2c7e1a55";
const PASSWORD = "summer:2024";

/** A stand-in that takes the config only with the user's key and password and the objects' own fields. */
function standIn() {
  const errors: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    const ok = body.apiKey === API_KEY && body.password === PASSWORD &&
      body.devices[0].$$hashKey === "object:440" && body.devices[1].$$hashKey === "object:684" &&
      body.sortKey === "name" && body.i18nKey === "menu.title";
    if (!ok) errors.push(JSON.stringify(body));
    return new Response(null, { status: ok ? 200 : 400 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, errors, close: () => server.shutdown() };
}

Deno.test("convert har: a key-named field holding a word and a count is sent as recorded, never asked for", async () => {
  const dir = await Deno.makeTempDir();
  const server = standIn();
  try {
    const body = {
      devices: [{ name: "a", $$hashKey: "object:440" }, { name: "b", $$hashKey: "object:684" }],
      sortKey: "name",
      i18nKey: "menu.title",
      apiKey: API_KEY,
      password: PASSWORD,
    };
    const har = harOf([
      { method: "PUT", url: "http://127.0.0.1:8384/config", body: JSON.stringify(body) },
    ]);
    await Deno.writeTextFile(`${dir}/in.har`, har);
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    const asked = /Set before running: (.*)\./.exec(converted.stderr)?.[1].split(", ") ?? [];
    assert.deepEqual(asked.sort(), ["UPDATE_CONFIG_API_KEY", "UPDATE_CONFIG_PASSWORD"], flow);
    assert.ok(!flow.includes(API_KEY) && !flow.includes(PASSWORD), flow);
    const env = {
      BASE_URL: server.origin,
      UPDATE_CONFIG_API_KEY: API_KEY,
      UPDATE_CONFIG_PASSWORD: PASSWORD,
    };
    const run = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.deepEqual(server.errors, []);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: an API, access or bare key holding a word is still a credential, asked for", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // Docs examples type ordinary words into credentials (`api_key=key`): never sent as written.
    const body = { api_key: "key", accessKey: "open", key: "word", hashKey: "object:1" };
    await Deno.writeTextFile(
      `${dir}/in.har`,
      harOf([{ method: "PUT", url: "http://127.0.0.1:8384/config", body: JSON.stringify(body) }]),
    );
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/f.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const asked = /^Set before running: (.*)\.$/m.exec(converted.stderr)?.[1].split(", ") ?? [];
    assert.deepEqual(
      asked.sort(),
      ["UPDATE_CONFIG_ACCESS_KEY", "UPDATE_CONFIG_API_KEY", "UPDATE_CONFIG_KEY"],
      converted.stderr,
    );
    assert.match(await Deno.readTextFile(`${dir}/f.yaml`), /hashKey: object:1/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
