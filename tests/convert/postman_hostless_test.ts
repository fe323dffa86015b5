/**
 * A request whose URL has no host is named, not written as a step the
 * loader refuses: Postman's importer makes one from a relative
 * operation-level server (`servers: [{url: /v3}]`, @readme/oas-examples'
 * server-path-level.json, docs/real-servers.md "Real documents at scale"),
 * and the converter wrote `http:///v3/…`, so the whole flow failed to load.
 * Postman and Newman cannot send it either.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const COLLECTION = JSON.stringify({
  info: {
    name: "Servers",
    schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
  },
  variable: [{ key: "baseUrl", value: "https://api.example.com/v2" }],
  item: [
    {
      name: "Relative operation-level server",
      request: {
        method: "GET",
        url: { path: ["v3", "relative-operation-server"], query: [], variable: [] },
      },
    },
    {
      name: "Relative path-level server",
      request: {
        method: "GET",
        url: { path: ["relative-path-server"], host: ["{{baseUrl}}"], query: [], variable: [] },
      },
    },
  ],
});

Deno.test("convert postman: a request with no host in its URL is named as not converted, and the flow loads", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-hostless-" });
  try {
    await Deno.writeTextFile(`${dir}/servers.postman_collection.json`, COLLECTION);
    const converted = await runCli([
      "convert",
      "postman",
      `${dir}/servers.postman_collection.json`,
      "-o",
      `${dir}/out`,
    ]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(
      converted.stderr,
      /Not converted, since flowrun cannot send them: Relative operation-level server \(its URL has no host: \/v3\/relative-operation-server\)/,
    );
    const validated = await runCli(["validate", "--no-env", `${dir}/out`]);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
    const flows = [...Deno.readDirSync(`${dir}/out`)].filter((e) => e.name.endsWith(".yaml"));
    const text = flows.map((e) => Deno.readTextFileSync(`${dir}/out/${e.name}`)).join("\n");
    assert.doesNotMatch(text, /http:\/\/\//);
    assert.match(text, /relative-path-server/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
