/**
 * For `convert curl`'s end-to-end tests: a server on 127.0.0.1 that keeps
 * every request it gets, the real `curl` sending a corpus file at it, the
 * converted flow run at it, and a field-by-field comparison of what both
 * sent. The flow runs with each required environment variable set to a
 * sentinel (`ZZNAMEZZ`); where a sentinel arrives, the comparison binds it
 * to what curl sent there, the same value everywhere, and the test then
 * checks that no bound value is written in the flow.
 */
import assert from "node:assert/strict";
import { isAnalyticsCookie, keepHeader } from "../../lib/convert/noise_headers.ts";
import { runCli } from "./cli.ts";

/** One request as it arrived. */
export interface Arrived {
  method: string;
  target: string;
  headers: [string, string][];
  body: Uint8Array;
}

/** The recording server: every request it got, in order; close it at the end. */
export interface Wire {
  origin: string;
  take(): Arrived[];
  close(): Promise<void>;
}

/** Starts the recording server; each request gets `{"ok":true}`. */
export function startWire(): Wire {
  const got: Arrived[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    got.push({
      method: req.method,
      target: url.pathname + url.search,
      headers: [...req.headers],
      body: new Uint8Array(await req.arrayBuffer()),
    });
    return Response.json({ ok: true });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    take: () => got.splice(0),
    close: () => server.shutdown(),
  };
}

/** The corpus folder. */
export const CORPUS = new URL("../fixtures/curl/", import.meta.url).pathname;

/** The hosts the corpus sends to; each is pointed at the local server. */
const HOSTS =
  /https?:\/\/(shop\.example\.com|notes\.example\.org|api\.tasks\.example\.net|api\.github\.com|api\.stripe\.com|slack\.com|inventory\.example\.io|api\.twilio\.com|api\.openai\.com|example\.com)/g;

/** A temporary copy of the corpus with every API origin the local server's. */
export async function localCorpus(origin: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-curl-" });
  for await (const entry of Deno.readDir(CORPUS)) {
    if (!entry.isFile) continue;
    const bytes = await Deno.readFile(CORPUS + entry.name);
    const text = /\.(sh|txt)$/.test(entry.name)
      ? new TextEncoder().encode(new TextDecoder().decode(bytes).replace(HOSTS, origin))
      : bytes;
    await Deno.writeFile(`${dir}/${entry.name}`, text);
  }
  return dir;
}

/**
 * Runs `fn` with the wire started and a {@linkcode localCorpus} pointed at
 * it; the wire closed and the copy removed whatever `fn` does.
 *
 * @example
 * ```ts ignore
 * import { withWire } from "./curl_wire.ts";
 * await withWire(async (wire, dir) => console.log(wire.origin, dir));
 * ```
 */
export async function withWire(fn: (wire: Wire, dir: string) => Promise<void>): Promise<void> {
  const wire = startWire();
  const dir = await localCorpus(wire.origin);
  try {
    await fn(wire, dir);
  } finally {
    await wire.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Points the hosts `hosts` matches in the copy's `file` at the wire too: a
 * URL (`https://…`) becomes the wire's origin, a bare `host:port` its host
 * and port.
 */
export async function pointAt(wire: Wire, dir: string, file: string, hosts: RegExp): Promise<void> {
  const path = `${dir}/${file}`;
  const text = await Deno.readTextFile(path);
  await Deno.writeTextFile(
    path,
    text.replace(hosts, (m) => m.startsWith("http") ? wire.origin : wire.origin.slice(7)),
  );
}

/** The variables a conversion summary's `Set before running:` line names, sorted. */
export function askedSorted(summary: string): string[] | undefined {
  return /^Set before running: (.*)\.$/m.exec(summary)?.[1].split(", ").sort();
}

/** Runs a corpus file with bash (the real curl) and returns what arrived. */
export async function sendWithCurl(
  wire: Wire,
  dir: string,
  file: string,
  env: Record<string, string>,
): Promise<Arrived[]> {
  const out = await new Deno.Command("bash", {
    args: [file],
    cwd: dir,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: dir, ...env },
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return wire.take();
}

/** What converting and running a corpus file gave. */
export interface Converted {
  yaml: string;
  summary: string;
  arrived: Arrived[];
  /** Sentinel name → what curl sent in its place, filled by {@linkcode compareAll}. */
  bindings: Map<string, string>;
}

/** Converts a corpus file with the CLI, then runs the flow at the server with sentinels set. */
export async function convertAndRun(
  wire: Wire,
  dir: string,
  file: string,
  env: Record<string, string>,
): Promise<Converted> {
  const converted = await runCli(["convert", "curl", file, "-o", `${file}.yaml`], { cwd: dir });
  assert.equal(converted.code, 0, converted.stderr);
  const yaml = await Deno.readTextFile(`${dir}/${file}.yaml`);
  const required = /^Set before running: (.*)\.$/m.exec(converted.stderr)?.[1].split(", ") ?? [];
  const sentinels = Object.fromEntries(required.map((n) => [n, `ZZ${n}ZZ`]));
  const run = await runCli(["run", `${file}.yaml`], { cwd: dir, env: { ...sentinels, ...env } });
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}\n${yaml}`);
  return { yaml, summary: converted.stderr, arrived: wire.take(), bindings: new Map() };
}

const SENTINEL = /ZZ([A-Z0-9_]+)ZZ/g;

/** Whether `sent` (curl's) matches `template` (the flow's, sentinels inside); binds each sentinel. */
function matches(sent: string, template: string, bindings: Map<string, string>, what: string) {
  const names: string[] = [];
  const source = template.split(SENTINEL).map((part, i) => {
    if (i % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    names.push(part);
    return "([\\s\\S]*?)";
  }).join("");
  const m = new RegExp(`^${source}$`).exec(sent);
  assert.ok(m, `${what}: curl sent ${JSON.stringify(sent)}, the flow ${JSON.stringify(template)}`);
  names.forEach((name, i) => {
    const known = bindings.get(name);
    assert.ok(known === undefined || known === m[i + 1], `${what}: ${name} is bound twice`);
    bindings.set(name, m[i + 1]);
  });
}

/** Headers both sides send by themselves, and those `convert curl` drops as noise. */
function compared(headers: [string, string][]): Map<string, string> {
  const own = new Set(["host", "user-agent", "accept-encoding", "content-length", "connection"]);
  // No Accept means any type (RFC 9110, 12.5.1): curl writes `*/*`, flowrun's insecure path none.
  const implied = ([n, v]: [string, string]) => n === "accept" && v === "*/*";
  return new Map(
    headers.filter((h) =>
      !own.has(h[0]) && keepHeader(h[0]) && h[0] !== "cookie" && h[0] !== "content-type" &&
      !implied(h)
    ),
  );
}

/** The cookies curl sent (analytics left out) against the flow's, a sentinel standing for the rest. */
function cookiesMatch(sent: string, flow: string, bindings: Map<string, string>, what: string) {
  const pairs = sent.split(/;\s*/).filter((p) => p !== "" && !isAnalyticsCookie(p.split("=")[0]));
  const parts = flow.split(/;\s*/).filter((p) => p !== "");
  const rest = pairs.filter((p) => !parts.includes(p));
  const sentinel = parts.find((p) => /^ZZ[A-Z0-9_]+ZZ$/.test(p));
  if (sentinel) matches(rest.join("; "), sentinel, bindings, `${what} cookie`);
  else assert.deepEqual(rest, [], `${what}: cookies curl sent that the flow did not`);
}

/** A body in a form both sides can be compared in: JSON re-serialised, forms as decoded pairs. */
async function canonicalBody(body: Uint8Array, type: string): Promise<string> {
  const text = new TextDecoder().decode(body);
  if (/json/.test(type) && text.trim() !== "") return JSON.stringify(JSON.parse(text));
  if (/x-www-form-urlencoded/.test(type)) {
    return [...new URLSearchParams(text)].map(([k, v]) => `${k}=${v}`).join("\n");
  }
  if (/multipart\/form-data/.test(type)) {
    const form = await new Request("http://x/", {
      method: "POST",
      headers: { "content-type": type },
      body: body as BodyInit,
    }).formData();
    const lines: string[] = [];
    for (const [name, value] of form) {
      // A flow sends a text part's line breaks as CRLF, as browsers do (the converter notes it).
      lines.push(
        typeof value === "string"
          ? `${name}=${value.replaceAll("\r\n", "\n")}`
          : `${name}=file ${value.name} ${value.type} ${
            [...new Uint8Array(await value.arrayBuffer())].join(",")
          }`,
      );
    }
    return lines.join("\n");
  }
  return text;
}

/** Compares one request curl sent with the one the flow sent, field by field. */
export async function compareOne(
  a: Arrived,
  b: Arrived,
  bindings: Map<string, string>,
  what: string,
  known: string[] = [],
) {
  assert.equal(b.method, a.method, `${what}: method`);
  // curl's URL parser writes lower-case escapes in a query it built (`-G`): the same bytes decoded.
  const hex = (t: string) => t.replace(/%[0-9a-f]{2}/gi, (e) => e.toUpperCase());
  matches(hex(a.target), hex(b.target), bindings, `${what} target`);
  const ah = compared(a.headers), bh = compared(b.headers);
  assert.deepEqual([...bh.keys()].sort(), [...ah.keys()].sort(), `${what}: header names`);
  for (const [name, value] of bh) matches(ah.get(name)!, value, bindings, `${what} ${name}`);
  const cookie = (h: [string, string][]) => h.find(([n]) => n === "cookie")?.[1];
  if (cookie(a.headers) !== undefined || cookie(b.headers) !== undefined) {
    cookiesMatch(cookie(a.headers) ?? "", cookie(b.headers) ?? "", bindings, what);
  }
  const type = (h: [string, string][]) => h.find(([n]) => n === "content-type")?.[1] ?? "";
  const base = (t: string) => t.replace(/;\s*boundary=.*$/, "");
  if (!(type(a.headers) === "" && known.includes("octet-stream"))) {
    assert.equal(base(type(b.headers)), base(type(a.headers)), `${what}: content-type`);
  }
  matches(
    await canonicalBody(a.body, type(a.headers)),
    await canonicalBody(b.body, type(b.headers)),
    bindings,
    `${what} body`,
  );
}

/** Compares every request in order; then no bound secret may be written in the flow. */
export async function compareAll(
  curl: Arrived[],
  flow: Converted,
  what: string,
  known: Record<string, string> = {},
): Promise<void> {
  assert.equal(flow.arrived.length, curl.length, `${what}: number of requests`);
  for (let i = 0; i < curl.length; i++) {
    await compareOne(
      curl[i],
      flow.arrived[i],
      flow.bindings,
      `${what} #${i + 1} ${curl[i].method} ${curl[i].target}`,
      [known[`${curl[i].method} ${curl[i].target}`] ?? ""],
    );
  }
  for (const [name, value] of flow.bindings) {
    if (value.length >= 4) {
      assert.ok(!flow.yaml.includes(value), `${what}: ${name}'s value is in the flow`);
    }
  }
}
