/**
 * `convert har` on chrome-har's recording of a JSON body with a one-item
 * list: chrome-har writes `{"features": ["summer-sale"]}` as the one pair
 * `features=summer-sale`, so the body was rebuilt as a string and the
 * server refused it (400; Unleash's archive check, in the runs where the page
 * had listed no flag yet). The recording's answers hold `features` as a list
 * (an empty one, before anything was made), and wrapping that one member
 * gives the size the browser sent: it is a list again. Without such an
 * answer nothing is guessed (tests/convert/select_test.ts).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { chromeHarEntry } from "../support/har_records.ts";

const API = "http://127.0.0.1:4242/api";

Deno.test("convert har: a flattened member an answer holds as a list, even an empty one, is a list again when that gives the size sent, and the server takes it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-flattened-listed-" });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "GET") return Response.json({ features: [], total: 0 });
    const { features } = await req.json();
    return Array.isArray(features)
      ? Response.json({ hasDeletedDependencies: false })
      : Response.json({ message: `"features" must be an array` }, { status: 400 });
  });
  try {
    const har = {
      log: {
        version: "1.2",
        creator: { name: "chrome-har", version: "1" },
        entries: [
          chromeHarEntry("GET", `${API}/search/features`, { features: [], total: 0 }),
          chromeHarEntry("POST", `${API}/archive/validate`, { hasDeletedDependencies: false }, {
            features: ["summer-sale"],
          }),
        ],
      },
    };
    await Deno.writeTextFile(`${dir}/ui.har`, JSON.stringify(har));
    const converted = await runCli(["convert", "har", `${dir}/ui.har`, "-o", `${dir}/ui.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /"features" is a list again/, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/ui.yaml`);
    assert.match(flow, /features: \[summer-sale\]/, flow);
    const { port } = server.addr as Deno.NetAddr;
    const run = await runCli(["run", `${dir}/ui.yaml`], {
      env: { BASE_URL: `http://127.0.0.1:${port}` },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr + flow);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
