/**
 * `convert har` on stored recordings mutated as real exports are broken (a
 * key missing, null, a wrong type, an empty array or object, a duplicated
 * entry, a header without a value, base64 that is not, a huge or control
 * character string, a truncated file, a body that is not UTF-8): it either
 * writes a flow `flowrun validate` passes, or throws the usage error that
 * names what is wrong. Anything else (a TypeError, a RangeError) fails with
 * the seed and the mutations. Seeded and bounded: work is counted, never timed.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { root, runCli } from "../support/cli.ts";
import { convertSeeds } from "../support/fuzz_seeds.ts";
import { mutateJson, type Mutation, truncated } from "../support/mutate.ts";

/** Small recordings of each writer (Chrome, Firefox, Playwright, CDP), sockets and streams too. */
const RECORDINGS = [
  "tests/fixtures/har/auth_variants.har",
  "tests/fixtures/har/encoded_bodies.har",
  "tests/fixtures/har/login_no_responses.har",
  "tests/fixtures/har/firefox_crm.har",
  "tests/fixtures/har/keycloak_pkce_graphql.har",
  "tests/fixtures/har/django_form_login.har",
  "tests/fixtures/har/uploads/rails_form_upload.har",
  "tests/fixtures/har_websocket/chat.har",
  "tests/fixtures/har_websocket/chat.pw.har",
  "tests/fixtures/har_sse/events.pw.har",
  "tests/fixtures/har/chrome_shop.har",
  "tests/real/fixtures/socketio/late-ack.pw.har",
];
const SEEDS = Number(Deno.env.get("FUZZ_SEEDS") ?? 120);

/** HAR's own breakages: a header without its value, base64 that is not, a body's encoding lost. */
function harMutation(parent: Record<string | number, unknown>, key: string | number) {
  const node = parent[key] as Record<string, unknown> | null;
  if (node === null || typeof node !== "object" || Array.isArray(node)) return undefined;
  if ("name" in node && "value" in node) {
    delete node.value;
    return "a header without a value";
  }
  if ("mimeType" in node && "text" in node) {
    node.encoding = "base64";
    node.text = "%%not base64, but it says so%%";
    return "base64 that is not";
  }
  if ("size" in node && "mimeType" in node) {
    node.text = 42;
    return "a number for the body text";
  }
  return undefined;
}

/** The recording as bytes, mutated 1 to 3 times; sometimes cut short or given non-UTF-8 bytes. */
function mutant(text: string, next: () => number): { input: Uint8Array; did: Mutation[] } {
  const har = JSON.parse(text);
  const did: Mutation[] = [];
  for (let n = 1 + Math.floor(next() * 3); n > 0; n--) did.push(mutateJson(har, next, harMutation));
  let out = JSON.stringify(har);
  if (next() < 0.1) {
    const [cut, what] = truncated(out, next);
    out = cut;
    did.push(what);
  }
  const bytes = new TextEncoder().encode(out);
  const body = out.indexOf('"text":"');
  if (next() < 0.15 && body >= 0) {
    // A Latin-1 body written as is: bytes no UTF-8 reader accepts, inside a string.
    const at = new TextEncoder().encode(out.slice(0, body + 8)).length;
    const input = new Uint8Array([...bytes.slice(0, at), 0xff, 0xe9, 0x80, ...bytes.slice(at)]);
    return { input, did: [...did, { what: `non-UTF-8 bytes at ${at}` }] };
  }
  return { input: bytes, did };
}

Deno.test("har fuzz: mutated recordings convert into flows that load, or end with a usage error", async () => {
  const texts = await Promise.all(RECORDINGS.map((f) => Deno.readTextFile(`${root}${f}`)));
  const { dir, written, refused, failures, named } = await convertSeeds(SEEDS, (seed, next) => {
    const source = Math.floor(next() * texts.length);
    const { input, did } = mutant(texts[source], next);
    return {
      name: `seed ${seed} (${RECORDINGS[source]}: ${did.map((d) => d.what).join("; ")})`,
      convert: () => {
        const result = convertHar(input);
        return [{ path: "flow.yaml", text: result.yaml }, ...result.files];
      },
    };
  });
  try {
    assert.deepEqual(failures, [], failures.join("\n\n"));
    assert.ok(written > SEEDS / 3, `${written} written, ${refused} refused`);
    const check = await runCli(["validate", dir, "--no-env"]);
    const said = `${check.stdout}${check.stderr}`;
    const seeds = [...said.matchAll(/\/(\d+)\/flow\.yaml:/g)];
    const which = [...new Set(seeds.map((m) => named.get(Number(m[1]))))].join("\n");
    assert.equal(check.code, 0, `${said}\n${which}`);
    const checked = Number(
      `${check.stdout}${check.stderr}`.match(/(\d+) flow files? checked/)?.[1],
    );
    assert.equal(checked, written, check.stdout + check.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
