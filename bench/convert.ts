/**
 * How long `convert har` takes as recordings grow: 1k, 5k and 20k entries of
 * a realistic mix (logins, CRUD with server ids, polls, assets, analytics),
 * or with `--chain body|header|refresh` a token chain (each POST sending back
 * the token the answer before handed out, tests/support/token_chain.ts), or
 * with `--repeats` each size is how often one request repeats: a chat posting
 * N messages to one room, each followed by the same status poll
 * (tests/support/repeats.ts, 2N + 2 entries), or with `--repeats form` N
 * posts of one form sending the same CSRF field.
 * Run by hand: `deno run -A bench/convert.ts [--chain PLACE | --repeats [form]] [sizes...]`.
 */
import { convertHar } from "../lib/convert/har.ts";
import { type ChainPlace, tokenChain } from "../tests/support/token_chain.ts";
import { repeatedForm, repeatedRequests } from "../tests/support/repeats.ts";

/** A recording of `n` entries. */
export function recording(n: number): string {
  const entries: unknown[] = [];
  const at = (i: number) => new Date(Date.UTC(2026, 10, 21, 10) + i * 50).toISOString();
  const api = (
    i: number,
    method: string,
    path: string,
    status: number,
    body: unknown,
    sent?: unknown,
  ) => ({
    startedDateTime: at(i),
    request: {
      method,
      url: `https://shop.test${path}`,
      headers: [
        { name: "content-type", value: "application/json" },
        { name: "authorization", value: "Bearer tok_9f8e7d6c5b4a3928" },
      ],
      ...(sent ? { postData: { mimeType: "application/json", text: JSON.stringify(sent) } } : {}),
    },
    response: { status, content: { mimeType: "application/json", text: JSON.stringify(body) } },
    _resourceType: "fetch",
  });
  entries.push(
    api(0, "POST", "/api/login", 200, { token: "tok_9f8e7d6c5b4a3928" }, {
      user: "ann",
      password: "pw-1234",
    }),
  );
  for (let i = 1; entries.length < n; i++) {
    const id = `ord_${i.toString(16).padStart(8, "0")}`;
    entries.push(
      api(entries.length, "POST", "/api/orders", 201, { id, state: "new" }, { sku: `sku-${i}` }),
    );
    entries.push(api(entries.length, "GET", `/api/orders/${id}`, 200, { id, state: "new" }));
    entries.push({
      ...api(entries.length, "GET", `/static/app-${i}.js`, 200, {}),
      _resourceType: "script",
    });
    entries.push(api(entries.length, "POST", "/g/collect", 204, {}));
    entries.push(api(entries.length, "DELETE", `/api/orders/${id}`, 204, {}));
  }
  return JSON.stringify({ log: { entries: entries.slice(0, n) } });
}

if (import.meta.main) measure();

function measure(): void {
  const at = Deno.args.indexOf("--chain");
  const chain = at >= 0 ? Deno.args[at + 1] as ChainPlace : undefined;
  const repeats = Deno.args.includes("--repeats");
  const form = repeats && Deno.args.includes("form");
  const args = Deno.args.filter((a, i) =>
    a !== "--repeats" && a !== "form" && (at < 0 || i < at || i > at + 1)
  );
  const sizes = args.length > 0 ? args.map(Number) : [1000, 5000, 20000];
  for (const n of sizes) {
    // With --repeats, n is how often each request repeats: 2n + 2 entries (n for a form).
    const text = chain
      ? tokenChain(n, chain)
      : form
      ? repeatedForm(n)
      : repeats
      ? repeatedRequests(n)
      : recording(n);
    const started = performance.now();
    const { summary } = convertHar(text);
    const ms = performance.now() - started;
    console.log(
      `${String(n).padStart(6)} ${repeats ? "repeats" : "entries"}: ${(ms / 1000).toFixed(2)} s (${
        (ms / (repeats && !form ? 2 * n + 2 : n) * 1000).toFixed(0)
      } µs per entry), ${summary.kept} steps`,
    );
  }
}
