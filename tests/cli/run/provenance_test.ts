import assert from "node:assert/strict";
import { provenance } from "../../../cli/run/provenance.ts";

Deno.test("provenance names the platform and the variables read, never their values", async () => {
  const lines = await provenance(() => undefined, new Set(["Z_TOKEN", "A_URL"]));
  assert.equal(lines.platform, `${Deno.build.os} ${Deno.build.arch}`);
  assert.equal(lines.deno, Deno.version.deno);
  assert.equal(lines.environment, "A_URL, Z_TOKEN");
  assert.equal((await provenance(() => undefined, new Set())).environment, undefined);
});

Deno.test("a CI's provenance is added when its variables are set", async () => {
  const env: Record<string, string> = {
    GITHUB_ACTIONS: "true",
    GITHUB_REPOSITORY: "acme/api",
    GITHUB_SHA: "abc123",
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_RUN_ID: "42",
  };
  const lines = await provenance((name) => env[name], new Set());
  assert.ok(Object.keys(lines).length > 2, JSON.stringify(lines));
  assert.ok(Object.values(lines).some((value) => value.includes("abc123")), JSON.stringify(lines));
});
