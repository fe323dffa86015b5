/**
 * `auth: {oauth2: {grant_type: device_code}}` against panva's oidc-provider
 * (see oauth2_interop_test.ts): flowrun's one line on stderr is read as a
 * person would read it, and the device approved, or aborted, on the
 * provider's own pages (code entry, confirmation, sign-in, consent) while
 * flowrun polls at RFC 8628's 5 s, since the provider sends no interval.
 */
import assert from "node:assert/strict";
import { spawnCli } from "../support/cli.ts";
import { approveDevice, type Idp, startIdp } from "../support/oidc_provider.ts";
import {
  assertNoSecret,
  assertRenewed,
  authFile,
  ENV,
  flow,
  STEPS,
} from "../support/oauth2_interop.ts";
import { withFiles } from "../support/with_files.ts";

/** Reads a child's stream until `pattern` matches (at most `ms`), returning the match and all read. */
async function readUntil(stream: ReadableStream<Uint8Array>, pattern: RegExp, ms: number) {
  // A TransformStream of our own: lib.dom types TextDecoderStream's writable side as BufferSource.
  const decoder = new TextDecoder();
  const reader = stream.pipeThrough(
    new TransformStream<Uint8Array, string>({
      transform: (bytes, out) => out.enqueue(decoder.decode(bytes, { stream: true })),
    }),
  ).getReader();
  let text = "";
  const timer = setTimeout(() => reader.cancel(), ms);
  try {
    for (let read = 0; read < 10_000; read++) {
      const match = pattern.exec(text);
      if (match) return { match, rest: reader };
      const chunk = await reader.read();
      if (chunk.done) break;
      text += chunk.value;
    }
    throw new Error(`${pattern} never came on the stream: ${text}`);
  } finally {
    clearTimeout(timer);
  }
}

/** The rest of a stream, at most 10,000 chunks. */
async function restOf(reader: ReadableStreamDefaultReader<string>): Promise<string> {
  let text = "";
  for (let i = 0; i < 10_000; i++) {
    const chunk = await reader.read();
    if (chunk.done) return text;
    text += chunk.value;
  }
  return text;
}

/**
 * A device_code run through the CLI (killed after 30 s), the person reading
 * flowrun's line on stderr and then approving, or aborting, on the provider's pages.
 */
async function runDevice(idp: Idp, press?: "abort") {
  const files = {
    "auth.yaml": authFile(
      idp,
      `grant_type: device_code\ndevice_authorization_url: ${idp.issuer}/device/auth\nclient_id: app\nclient_secret: "\${ENV.CLIENT_SECRET}"\nscope: openid offline_access api:read`,
    ),
    "f.yaml": flow(idp, STEPS, "300ms"),
  };
  return await withFiles(files, async (dir) => {
    const child = spawnCli(
      ["run", `${dir}/f.yaml`, "--auth-file", `${dir}/auth.yaml`, "--report-json", `${dir}/r.json`],
      { env: ENV },
    );
    const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    try {
      const stdout = new Response(child.stdout).text();
      // The one line flowrun writes for a person: the page to open and the code to type there.
      const { match, rest } = await readUntil(
        child.stderr,
        /open (\S+) and enter the code (\S+) .*?every (\d+) s/,
        15_000,
      );
      const person = await approveDevice(match[1], match[2], press);
      const stderr = await restOf(rest);
      const { code } = await child.status;
      const json = await Deno.readTextFile(`${dir}/r.json`).catch(() => "");
      return { code, stdout: await stdout, stderr, json, line: match, person };
    } finally {
      clearTimeout(killer);
      try {
        child.kill("SIGKILL");
      } catch {
        // Already ended.
      }
    }
  });
}

Deno.test("oidc-provider: device_code, approved through the provider's pages while flowrun polls, then renewed with its refresh token", async () => {
  const idp = await startIdp(2);
  try {
    const r = await runDevice(idp);
    assert.equal(r.line[1], `${idp.issuer}/device`);
    // oidc-provider sends no interval: RFC 8628's 5 s.
    assert.equal(r.line[3], "5");
    assert.match(r.person.last, /Sign-in Success/, r.person.pages.join("\n"));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    // The device code grant once, then refresh_token grants (no second device line).
    const grants = idp.tokens.map((t) => `${t.grant} ${t.ok} ${t.via}`);
    assert.equal(
      grants[0],
      "urn:ietf:params:oauth:grant-type:device_code true basic",
      grants.join(),
    );
    assertRenewed(idp, grants.length);
    assert.ok(grants.slice(1).every((g) => g === "refresh_token true basic"), grants.join());
    assert.ok(!r.stderr.includes("enter the code"), "one line for a person, not two");
    assertNoSecret(r, []);
    const steps = JSON.parse(r.json).flows[0].steps.map((s: { name: string }) => s.name);
    assert.ok(steps.includes("auth › oauth2 device authorization"), steps.join());
  } finally {
    await idp.close();
  }
});

Deno.test("oidc-provider: a device the person aborts on the provider's page fails the step, quoting access_denied", async () => {
  const idp = await startIdp();
  try {
    const r = await runDevice(idp, "abort");
    assert.match(r.person.last, /The Sign-in request was interrupted/, r.person.pages.join("\n"));
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      new RegExp(
        `The OAuth2 device authorization was denied: the token request to ${idp.issuer}/token answered 400 access_denied \\(End-User aborted interaction\\)`,
      ),
    );
    assert.deepEqual(idp.calls, [], "the API was not called");
    assertNoSecret(r, []);
  } finally {
    await idp.close();
  }
});
