/**
 * `convert har` on fields named like keys that hold the app's own names, as
 * phpMyAdmin's page sends them (tests/real/phpmyadmin_har_test.ts): its
 * script reads and writes settings with `POST /config/get`
 * `key=NavigationWidth`, `key=Console`, then `POST /config/set`
 * `key=Console/Mode`; its index dialog posts `index[Key_name]=PRIMARY`, and
 * the table's form sends the same inside JSON
 * (`primary_indexes=[{"Key_name":"PRIMARY",…}]`). Each was asked of the user
 * as a secret (five variables, and the PRIMARY inside the JSON as
 * RECORDED_SECRET); with only the password the run refused to start, and
 * given guesses it failed at its first XHR.
 *
 * The evidence, whatever the names: a user has one credential per field,
 * so a bare `key` the same recording sends with several words is a lookup
 * (a setting's name), and a field that names a key (`Key_name`, its last
 * word `name`, brackets apart) describes one rather than holds one. A bare
 * `key` sent with one word stays a credential
 * (har_lookup_keys_test.ts), and so does a password beside these.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const FORM = "application/x-www-form-urlencoded";
const PASSWORD = "amber:2024";

/** The requests the page's script sends, as recorded. */
function recording(origin: string): string {
  const form = (path: string, body: string) => ({
    method: "POST",
    url: `${origin}${path}`,
    mime: FORM,
    body,
    json: { success: true },
  });
  return harOf([
    form("/login", `user=keeper&password=${PASSWORD}`),
    form("/config/get", "ajax_request=true&key=NavigationWidth"),
    form("/config/get", "ajax_request=true&key=Console"),
    form("/config/set", "ajax_request=true&key=Console%2FMode&value=%22collapse%22"),
    form("/indexes", "index%5BKey_name%5D=PRIMARY&index%5BIndex_choice%5D=PRIMARY"),
    form(
      "/create",
      `table=tides&primary_indexes=${
        encodeURIComponent(JSON.stringify([{ Key_name: "PRIMARY", Index_choice: "PRIMARY" }]))
      }`,
    ),
  ]);
}

/** A stand-in that answers 200 only to what the page sent, each field as recorded. */
function standIn() {
  const expected: Record<string, string[]> = {};
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const form = new URLSearchParams(await req.text());
    const path = new URL(req.url).pathname;
    const got = [...form.entries()].map(([k, v]) => `${k}=${v}`).join("&");
    seen.push(`${path} ${got}`);
    const ok = (expected[path] ?? []).includes(got);
    return Response.json({ success: ok }, { status: ok ? 200 : 400 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  for (const entry of JSON.parse(recording(origin)).log.entries) {
    const path = new URL(entry.request.url).pathname;
    const got = [...new URLSearchParams(entry.request.postData.text).entries()]
      .map(([k, v]) => `${k}=${v}`).join("&");
    (expected[path] ??= []).push(got);
  }
  return { origin, seen, close: () => server.shutdown() };
}

Deno.test("convert har: settings' names sent under key-named fields are sent as recorded, only the password asked for", async () => {
  const dir = await Deno.makeTempDir();
  const server = standIn();
  try {
    await Deno.writeTextFile(`${dir}/in.har`, recording(server.origin));
    const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    const asked = /^Set before running: (.*)\.$/m.exec(converted.stderr)?.[1].split(", ") ?? [];
    assert.deepEqual(asked, ["LOGIN_PASSWORD"], converted.stderr);
    assert.ok(!flow.includes(PASSWORD), flow);
    const env = { BASE_URL: server.origin, LOGIN_PASSWORD: PASSWORD };
    const run = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(run.code, 0, `${run.stdout}\n${server.seen.join("\n")}\n${flow}`);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
